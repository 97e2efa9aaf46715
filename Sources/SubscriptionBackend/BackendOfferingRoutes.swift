import Foundation
import Hummingbird
import NIOCore
import StoreShared

/// The routes of offerings and experiments: the app reads its customer's paywall
/// (`GET /v1/customers/{id}/offerings`), the team configures offerings and runs experiments under
/// `/v1/admin`. No rules here: each maps onto `SubscriptionBackend+Offerings`.
enum BackendOfferingRoutes {
    static func register(on v1: RouterGroup<BasicRequestContext>, backend: SubscriptionBackend) {
        v1.get("/customers/:appUserId/offerings") { request, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            let bundleId = request.uri.queryParameters["bundleId"].map(String.init)
            return try await answer { try await backend.customerOfferings(appUserId: user, bundleId: bundleId) }
        }
        v1.get("/admin/apps/:bundleId/offerings") { _, context in
            let bundleId = path(context, "bundleId")
            struct List: Encodable { var current: String?; var offerings: [Offering]
                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(current, forKey: .current)
                    try c.encode(offerings, forKey: .offerings)
                }
                enum CodingKeys: String, CodingKey { case current, offerings }
            }
            return try await answer {
                let (current, offerings) = try await backend.offerings(bundleId: bundleId)
                return List(current: current, offerings: offerings)
            }
        }
        v1.put("/admin/apps/:bundleId/offerings/:offeringId") { request, context in
            let bundleId = path(context, "bundleId"), id = path(context, "offeringId")
            guard let body = try? await request.body.collect(upTo: BackendHTTPServer.maxBody),
                  var object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] else {
                return BackendHTTPServer.error(400, "malformed", "expected an offering: {\"packages\": [{\"id\", \"productId\"}], \"preselectedPackage\", \"metadata\": {…}}")
            }
            if let named = object["id"], named as? String != id {
                return BackendHTTPServer.error(422, "invalidOffering", "$.id: the body names another offering than the path")
            }
            object["id"] = id
            guard let data = try? JSONSerialization.data(withJSONObject: object),
                  let offering = try? JSONDecoder().decode(Offering.self, from: data) else {
                return BackendHTTPServer.error(400, "invalidOffering", "expected {\"packages\": [{\"id\": string, \"productId\": string}], \"preselectedPackage\": string, \"metadata\": {string: string}, \"description\": string}")
            }
            return try await answer { try await backend.saveOffering(offering, bundleId: bundleId) }
        }
        v1.delete("/admin/apps/:bundleId/offerings/:offeringId") { _, context in
            let bundleId = path(context, "bundleId"), id = path(context, "offeringId")
            return try await answer {
                try await backend.deleteOffering(id: id, bundleId: bundleId)
                return ["deleted": id]
            }
        }
        v1.put("/admin/apps/:bundleId/current-offering") { request, context in
            let bundleId = path(context, "bundleId")
            struct Body: Decodable { var offeringId: String }
            guard let body: Body = await BackendCustomerRoutes.decode(request) else {
                return BackendHTTPServer.error(400, "malformed", "expected {\"offeringId\": \"…\"}")
            }
            return try await answer {
                try await backend.setCurrentOffering(id: body.offeringId, bundleId: bundleId)
                return ["current": body.offeringId]
            }
        }
        v1.get("/admin/experiments") { request, _ in
            let bundleId = request.uri.queryParameters["bundleId"].map(String.init)
            return try BackendHTTPServer.encoded(["experiments": try await backend.database.experiments(bundleId: bundleId)])
        }
        v1.put("/admin/experiments/:experimentId") { request, context in
            let id = path(context, "experimentId")
            struct Body: Decodable { var bundleId: String; var control: String; var treatment: String }
            guard let body: Body = await BackendCustomerRoutes.decode(request) else {
                return BackendHTTPServer.error(400, "malformed", "expected {\"bundleId\", \"control\": offering ID, \"treatment\": offering ID}")
            }
            return try await answer {
                try await backend.startExperiment(id: id, bundleId: body.bundleId, control: body.control, treatment: body.treatment)
            }
        }
        v1.post("/admin/experiments/:experimentId/stop") { _, context in
            let id = path(context, "experimentId")
            return try await answer { try await backend.stopExperiment(id: id) }
        }
        v1.get("/admin/experiments/:experimentId") { _, context in
            let id = path(context, "experimentId")
            guard let report = try await backend.experimentReport(id: id) else {
                return BackendHTTPServer.error(404, "experimentNotFound", "no experiment \(id)")
            }
            return try BackendHTTPServer.encoded(report)
        }
    }

    /// A path parameter percent-decoded, as clients encode `$` and other reserved characters; a
    /// value that does not decode becomes "" (which no app, offering or experiment is named).
    static func path(_ context: BasicRequestContext, _ name: String) -> String {
        context.parameters.get(name).flatMap { FormEncoding.pathDecoded($0) } ?? ""
    }

    /// `body`'s value as JSON, or its refusal as 400, 404 or 409 with Apple-style `{error, message}`.
    static func answer(_ body: () async throws -> some Encodable) async throws -> Response {
        do {
            return try BackendHTTPServer.encoded(try await body())
        } catch let refusal as OfferingRefusal {
            let status = switch refusal.kind { case .invalid: 400; case .refused: 422; case .notFound: 404; case .conflict: 409 }
            return BackendHTTPServer.error(status, refusal.code, refusal.description)
        }
    }
}
