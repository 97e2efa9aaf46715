import Foundation
import NIOHTTP1
import StoreEngine
import StoreModel
import StoreServer
import StoreTestSupport
import Testing

/// `/openapi.json` and the router agree both ways: every route the server registers is in the
/// document (with its method), and every operation the document describes is served.
@Suite(.removesTemporaryFolders) struct OpenAPICoverageTests {
    /// "GET /storekit/v1/apps/{}/products": method and path with parameter names erased, since a
    /// route's `:id` and the document's `{transactionId}` name the same segment.
    static func key(_ method: String, _ path: String) -> String {
        var normalized = path.hasPrefix("/") ? path : "/" + path
        normalized = normalized.replacing(/\{[^}]*\}/, with: "{}")
        if normalized.count > 1, normalized.hasSuffix("/") { normalized.removeLast() }
        return method.uppercased() + " " + normalized
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedPathIsServed() async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: "com.example.doc", appAppleId: 1, environment: .sandbox, name: "Doc", catalogJSON: adminCatalogJSON),
        ], transport: .router) { server in
            let routes = Set(StoreHTTPServer(store: server.store).makeRouter().routes.map { Self.key("\($0.method)", "\($0.path)") })
            #expect(routes.count > 50, "the router lists its routes: \(routes.sorted())")

            let answer = try await server.request(.GET, "/openapi.json")
            #expect(answer.status == 200)
            let paths = try #require(answer.json["paths"] as? [String: [String: Any]])
            let verbs: Set = ["get", "put", "post", "patch", "delete", "head", "options"]
            let documented = Set(paths.flatMap { path, item in item.keys.filter(verbs.contains).map { Self.key($0, path) } })

            let undocumented = routes.subtracting(documented).sorted()
            let unserved = documented.subtracting(routes).sorted()
            #expect(undocumented.isEmpty, "routes missing from openapi.json:\n\(undocumented.joined(separator: "\n"))")
            #expect(unserved.isEmpty, "openapi.json paths the server does not serve:\n\(unserved.joined(separator: "\n"))")
        }
    }
}
