import Hummingbird
import NIOCore
import StoreEngine

/// `GET /readyz`: 200 when the database is reachable and its migrations are applied, 503 with
/// `Retry-After` otherwise (a load balancer stops sending traffic until it passes again).
struct ReadinessRoute {
    let store: AppStore

    func register(on router: Router<StoreRequestContext>) {
        router.get("readyz") { _, _ in
            let readiness = await store.readiness()
            struct Body: Encodable {
                var status: String
                var database: String
                var schemaVersion: Int?
                var expectedSchemaVersion: Int
                var detail: String
            }
            let body = Body(
                status: readiness.ready ? "ready" : "unavailable", database: readiness.database,
                schemaVersion: readiness.schemaVersion, expectedSchemaVersion: readiness.expectedSchemaVersion,
                detail: readiness.detail)
            var response = try JSONResponse.ok(body, status: readiness.ready ? .ok : .serviceUnavailable)
            if !readiness.ready { response.headers[.retryAfter] = "2" }
            return response
        }
    }
}
