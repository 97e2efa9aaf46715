import Foundation
import Hummingbird
import StoreEngine
import StoreModel

/// `RESCIND_CONSENT` on request: the customer (or a parent) withdrew consent for the app, so the
/// app's server gets the notification with `appData`, as Apple sends it since November 2025.
struct AdminConsentRoutes {
    let store: AppStore

    struct Answer: Encodable {
        var notificationType = "RESCIND_CONSENT"
        var signedAppTransactionInfo: String
        var appTransaction: AppTransactionPayload
    }

    func register(on admin: RouterGroup<StoreRequestContext>) {
        admin.post("worlds/:world/apps/:bundleId/customers/:customer/rescind-consent") { _, context in
            let signed = try await context.world(try context.pathValue("world"), in: store).rescindConsent(
                bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
            return try JSONResponse.ok(Answer(signedAppTransactionInfo: signed.jws, appTransaction: signed.payload))
        }
    }
}
