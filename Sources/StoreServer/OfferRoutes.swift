import Foundation
import Hummingbird
import StoreEngine

/// Offer codes: the admin side makes them (App Store Connect's one-time and custom codes, with
/// limits and expiry) and lists them with their redemption counts; a device redeems one (the
/// offer code redeem sheet). Translation only: the rules are `World+OfferCodes`.
struct OfferRoutes {
    let store: AppStore
    let token: String?

    func register(on router: Router<StoreRequestContext>) {
        let admin = router.group("admin/v1/worlds/:world/apps/:bundleId").add(middleware: AdminAccess(token: token))
        admin.post("offer-codes") { request, context in try await createCodes(request, context) }
        admin.get("offer-codes") { _, context in try await listCodes(context) }
        for device in [router.group("storekit/v1"), router.group("storekit/v1/worlds/:world")] {
            device.post("apps/:bundleId/customers/:customer/redeem-code") { request, context in try await redeem(request, context) }
        }
    }

    struct CodeList: Encodable { var codes: [OfferCodeInfo] }

    func createCodes(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(OfferCodeBatchRequest.self)
        let codes = try await context.world(try context.pathValue("world"), in: store).createOfferCodes(
            body, bundleId: try context.pathValue("bundleId"))
        return try JSONResponse.ok(CodeList(codes: codes), status: .created)
    }

    func listCodes(_ context: StoreRequestContext) async throws -> Response {
        try JSONResponse.ok(CodeList(codes: try await context.world(try context.pathValue("world"), in: store).offerCodes(
            bundleId: try context.pathValue("bundleId"))))
    }

    struct RedeemBody: Decodable { var code: String }

    /// The answer of a purchase (`PurchaseAnswer`).
    func redeem(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(RedeemBody.self)
        let outcome = try await context.world(try context.world(), in: store).redeemOfferCode(
            body.code, bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
        return PurchaseAnswer.response(outcome)
    }
}
