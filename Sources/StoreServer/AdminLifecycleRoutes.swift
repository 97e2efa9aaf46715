import Foundation
import Hummingbird
import StoreEngine
import StoreModel

/// The Transaction Manager's price-increase actions (`requestPriceIncreaseConsentForTransaction`,
/// `consentToPriceIncreaseForTransaction`, `declinePriceIncreaseForTransaction`) on the admin API,
/// behind the same `AdminAccess` guard as the rest of `/admin/v1`. Each answers with the renewal
/// info as it now reads.
struct AdminLifecycleRoutes {
    let store: AppStore
    let token: String?

    struct PriceIncreaseBody: Decodable {
        var newPrice: String
        var mode: String?
    }

    func register(on router: Router<StoreRequestContext>) {
        let increase = router.group("admin/v1/worlds/:world/transactions/:transactionId/price-increase")
            .add(middleware: AdminAccess(token: token))
        increase.post { request, context in
            let body = try await request.decodeJSON(PriceIncreaseBody.self)
            guard let mode = PriceIncreaseMode(rawValue: body.mode ?? PriceIncreaseMode.consent.rawValue) else {
                throw RequestError.malformed("field \"mode\" must be \"consent\" or \"notify\"")
            }
            let signed = try await context.world(try context.pathValue("world"), in: store).requestPriceIncrease(
                transactionId: try context.pathValue("transactionId"), newPrice: body.newPrice, mode: mode)
            return try JSONResponse.ok(AdminView.RenewalInfoAnswer(signed))
        }
        increase.post("consent") { _, context in
            let signed = try await context.world(try context.pathValue("world"), in: store).consentToPriceIncrease(
                transactionId: try context.pathValue("transactionId"))
            return try JSONResponse.ok(AdminView.RenewalInfoAnswer(signed))
        }
        increase.post("decline") { _, context in
            let signed = try await context.world(try context.pathValue("world"), in: store).declinePriceIncrease(
                transactionId: try context.pathValue("transactionId"))
            return try JSONResponse.ok(AdminView.RenewalInfoAnswer(signed))
        }
    }
}
