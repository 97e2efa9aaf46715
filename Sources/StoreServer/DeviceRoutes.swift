import Foundation
import Hummingbird
import StoreEngine
import StoreModel

/// The device API: what StoreKit on a phone asks of the App Store. Documented in `openapi.json`.
struct DeviceRoutes {
    let store: AppStore

    /// The default world at `/storekit/v1`, and every world at `/storekit/v1/worlds/{world}`.
    func register(on router: Router<StoreRequestContext>) {
        register(on: router.group("storekit/v1"))
        register(on: router.group("storekit/v1/worlds/:world"))
    }

    func register(on api: RouterGroup<StoreRequestContext>) {
        // These read no world's data, but a world's name is still checked (openapi.json's rule).
        api.get("apps") { _, context in _ = try context.world(); return try listApps() }
        api.get("root-certificate") { _, context in _ = try context.world(); return rootCertificate() }
        api.get("apps/:bundleId/products") { request, context in try await listProducts(request, context) }
        api.get("customers/:customer") { _, context in try await getCustomer(context) }
        api.put("customers/:customer") { request, context in try await putCustomer(request, context) }
        api.post("apps/:bundleId/purchases") { request, context in try await purchase(request, context) }
        for scope in TransactionScope.allCases {
            let path = scope == .all ? "transactions" : scope.rawValue
            api.get("apps/:bundleId/customers/:customer/\(path)") { _, context in
                try await transactions(context, scope: scope)
            }
        }
        api.post("apps/:bundleId/customers/:customer/transactions/:transactionId/finish") { _, context in
            try await finish(context)
        }
        api.get("apps/:bundleId/customers/:customer/app-transaction") { _, context in try await appTransaction(context) }
        api.put("apps/:bundleId/customers/:customer/app-transaction") { request, context in
            try await updateAppTransaction(request, context)
        }
    }

    func listApps() throws -> Response {
        struct App: Encodable { var bundleId: String; var appAppleId: Int64; var environment: String; var name: String }
        struct Body: Encodable { var apps: [App] }
        return try JSONResponse.ok(Body(apps: store.apps.map {
            App(bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment.rawValue, name: $0.name)
        }))
    }

    func rootCertificate() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/pkix-cert"],
            body: .init(byteBuffer: ByteBuffer(bytes: store.authority.rootDER)))
    }

    func listProducts(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        struct Front: Encodable { var countryCode: String; var id: String; var currency: String; var locale: String }
        struct Body: Encodable { var storefront: Front; var products: [ProductListing] }
        let ids = request.queryValues("id")
        try await context.world(try context.world(), in: store).checkSimulatedError("Load Products")
        let (storefront, products) = try store.products(
            bundleId: try context.pathValue("bundleId"), storefront: try request.queryValue("storefront"),
            locale: try request.queryValue("locale"), ids: ids.isEmpty ? nil : ids)
        return try JSONResponse.ok(Body(
            storefront: Front(countryCode: storefront.countryCode, id: storefront.id, currency: storefront.currency, locale: storefront.locale),
            products: products))
    }

    struct CustomerBody: Codable {
        var name: String?
        var storefront: String?
        var locale: String?
        /// The customer's device verification identifier (`identifierForVendor`), to check
        /// `AppTransaction.deviceVerification` with; read-only.
        var deviceVerificationID: String?
    }

    func getCustomer(_ context: StoreRequestContext) async throws -> Response {
        let name = try context.pathValue("customer")
        guard let record = try await context.world(try context.world(), in: store).customer(name) else {
            throw StoreError.customerNotFound("no customer named \(name)")
        }
        let device = try await context.world(try context.world(), in: store).deviceVerificationID(customer: name)
        return try JSONResponse.ok(CustomerBody(name: record.name, storefront: record.storefront, locale: record.locale, deviceVerificationID: device))
    }

    func putCustomer(_ request: Request, _ context: StoreRequestContext) async throws -> Response {

        let body = try await request.decodeJSON(CustomerBody.self, emptyIsObject: true)
        let record = try await context.world(try context.world(), in: store).saveCustomer(
            try context.pathValue("customer"), storefront: body.storefront, locale: body.locale)
        let device = try await context.world(try context.world(), in: store).deviceVerificationID(customer: record.name)
        return try JSONResponse.ok(CustomerBody(name: record.name, storefront: record.storefront, locale: record.locale, deviceVerificationID: device))
    }

    struct PurchaseBody: Decodable {
        var productId: String
        var customer: String
        var quantity: Int?
        var appAccountToken: String?
        /// StoreKit 1's `SKPayment.applicationUsername`: a UUID sets `appAccountToken`.
        var applicationUsername: String?
        /// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
        var promotionalOffer: PurchaseOfferRequest.PromotionalOfferV1?
        /// `promotionalOffer(_:compactJWS:)`
        var promotionalOfferJWS: String?
        /// `promotionalOffer(id:)` (StoreKit Testing), with `testing: true`.
        var promotionalOfferID: String?
        var testing: Bool?
        /// `codeOffer(referenceName:)` (StoreKit Testing)
        var codeOfferReferenceName: String?
        /// `winBackOffer(_:)`
        var winBackOfferID: String?
        /// `simulatesAskToBuyInSandbox(_:)`: overrides the world's Ask to Buy switch outside Production.
        var simulatesAskToBuyInSandbox: Bool?
        /// `billingPlanType(_:)`: `MONTHLY` (monthly with a 12-month commitment) or `BILLED_UPFRONT`.
        var billingPlanType: String?
        /// `introductoryOfferEligibility(compactJWS:)`: the developer's signed eligibility verdict.
        var introductoryOfferEligibilityJWS: String?
    }

    func purchase(_ request: Request, _ context: StoreRequestContext) async throws -> Response {

        let body = try await request.decodeJSON(PurchaseBody.self)
        let offer = try PurchaseOfferRequest.from(
            promotionalOffer: body.promotionalOffer, promotionalOfferJWS: body.promotionalOfferJWS,
            promotionalOfferID: body.promotionalOfferID, testing: body.testing,
            codeOfferReferenceName: body.codeOfferReferenceName, winBackOfferID: body.winBackOfferID)
        var purchase = PurchaseRequest(
            bundleId: try context.pathValue("bundleId"), productId: body.productId, customer: body.customer,
            quantity: body.quantity ?? 1, appAccountToken: body.appAccountToken,
            simulatesAskToBuy: body.simulatesAskToBuyInSandbox)
        purchase.billingPlanType = body.billingPlanType
        purchase.introductoryOfferEligibilityJWS = body.introductoryOfferEligibilityJWS
        purchase.applicationUsername = body.applicationUsername
        let outcome = try await context.world(try context.world(), in: store).purchase(purchase, offer: offer)
        var answer = outcome
        if outcome.simulatesVerificationFailure {
            answer.transaction?.jws = VerificationFault.apply(outcome.transaction?.jws ?? "", true)
        }
        return PurchaseAnswer.response(answer)
    }

    func transactions(_ context: StoreRequestContext, scope: TransactionScope) async throws -> Response {
        struct Body: Encodable { var signedTransactions: [String] }
        let list = try await context.world(try context.world(), in: store).transactions(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"), scope: scope)
        let corrupt = try await context.world(try context.world(), in: store).simulatesVerificationFailure()
        return try JSONResponse.ok(Body(signedTransactions: list.map { VerificationFault.apply($0.jws, corrupt) }))
    }

    func finish(_ context: StoreRequestContext) async throws -> Response {
        struct Body: Encodable { var transactionId: String; var finished: Bool }
        let id = try context.pathValue("transactionId")
        try await context.world(try context.world(), in: store).finish(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"), transactionId: id)
        return try JSONResponse.ok(Body(transactionId: id, finished: true))
    }

    struct AppTransactionResponse: Encodable {
        var signedAppTransaction: String
        var appTransaction: AppTransactionPayload
    }

    func appTransaction(_ context: StoreRequestContext) async throws -> Response {
        try await context.world(try context.world(), in: store).checkSimulatedError("App Transaction")
        let signed = try await context.world(try context.world(), in: store).appTransaction(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
        return try JSONResponse.ok(AppTransactionResponse(signedAppTransaction: signed.jws, appTransaction: signed.payload))
    }

    struct AppTransactionBody: Decodable {
        var originalApplicationVersion: String?
        var originalPurchaseDate: Int64?
        var applicationVersion: String?
        /// `preorderDate` (ms) for a customer who pre-ordered the app; 0 clears it.
        var preorderDate: Int64?
    }

    func updateAppTransaction(_ request: Request, _ context: StoreRequestContext) async throws -> Response {

        let body = try await request.decodeJSON(AppTransactionBody.self)
        let signed = try await context.world(try context.world(), in: store).updateAppTransaction(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"),
            change: AppTransactionChange(
                originalApplicationVersion: body.originalApplicationVersion,
                originalPurchaseDate: body.originalPurchaseDate, applicationVersion: body.applicationVersion,
                preorderDate: body.preorderDate))
        return try JSONResponse.ok(AppTransactionResponse(signedAppTransaction: signed.jws, appTransaction: signed.payload))
    }
}
