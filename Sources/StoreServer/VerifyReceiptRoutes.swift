import Foundation
import Hummingbird
import StoreEngine

/// App receipts and Apple's `verifyReceipt`. `POST /verifyReceipt` is production
/// (buy.itunes.apple.com), `POST /sandbox/verifyReceipt` the test environment
/// (sandbox.itunes.apple.com); like Apple's, they answer HTTP 200 with the outcome in `status`.
/// Devices fetch their receipt at `GET …/customers/{customer}/receipt`; the admin API sets an
/// app's shared secret. Translation only: the rules are in `AppStore+Receipts`.
struct VerifyReceiptRoutes {
    let store: AppStore
    let token: String?
    /// App receipts of real apps stay well under this; a bigger body is malformed (21002).
    static let maxBody = 4 * 1024 * 1024

    func register(on router: Router<StoreRequestContext>) {
        for (path, sandbox) in [("verifyReceipt", false), ("sandbox/verifyReceipt", true)] {
            router.post(RouterPath(path)) { request, _ in
                let (buffer, received) = try await request.boundedBody(limit: Self.maxBody)
                let answer = received > Self.maxBody
                    ? await store.verifyReceipt([], sandbox: sandbox)
                    : await store.verifyReceipt(Array(buffer.readableBytesView), sandbox: sandbox)
                return try JSONResponse.ok(answer)
            }
            router.get(RouterPath(path)) { _, _ in
                try JSONResponse.ok(["status": AppStore.ReceiptStatus.notPost])
            }
        }
        for api in [router.group("storekit/v1"), router.group("storekit/v1/worlds/:world")] {
            api.get("apps/:bundleId/customers/:customer/receipt") { _, context in
                let receipt = try await context.world(try context.world(), in: store).appReceipt(
                    bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
                return try JSONResponse.ok(["receiptData": receipt])
            }
        }
        let admin = router.group("admin/v1/apps/:bundleId").add(middleware: AdminAccess(token: token))
        admin.get("shared-secret") { _, context in
            let bundleId = try context.pathValue("bundleId")
            return try JSONResponse.ok(SharedSecret(sharedSecret: try await store.sharedSecret(bundleId: bundleId)))
        }
        admin.put("shared-secret") { request, context in
            let body = try await request.decodeJSON(SharedSecret.self)
            let bundleId = try context.pathValue("bundleId")
            try await store.setSharedSecret(body.sharedSecret, bundleId: bundleId)
            return try JSONResponse.ok(SharedSecret(sharedSecret: try await store.sharedSecret(bundleId: bundleId)))
        }
        admin.delete("shared-secret") { _, context in
            let bundleId = try context.pathValue("bundleId")
            try await store.setSharedSecret(nil, bundleId: bundleId)
            return try JSONResponse.ok(SharedSecret(sharedSecret: nil))
        }
    }

    struct SharedSecret: Codable {
        var sharedSecret: String?
    }
}
