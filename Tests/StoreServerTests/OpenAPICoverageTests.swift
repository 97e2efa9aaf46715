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

    /// The rules that keep the document exact for a route added later (docs/reliability.md, "The
    /// documents are exact"): on our own surfaces every path parameter says what it accepts (a
    /// pattern or a list), and every operation lists the refusals it can answer: 400 when it
    /// takes parameters or a body, 404 when it names a world, 413 when it reads a JSON body.
    @Test func everyOperationSaysWhatItAcceptsAndHowItRefuses() async throws {
        var served: [String: Any]?
        try await LiveServer.with(apps: [], transport: .router) { server in served = try await server.request(.GET, "/openapi.json").json }
        let document = try #require(served)
        let components = try #require(document["components"] as? [String: Any])
        let parameters = components["parameters"] as? [String: [String: Any]] ?? [:]
        let schemas = components["schemas"] as? [String: [String: Any]] ?? [:]
        func resolved(_ object: [String: Any], in table: [String: [String: Any]]) -> [String: Any] {
            guard let ref = object["$ref"] as? String, let name = ref.split(separator: "/").last else { return object }
            return resolved(table[String(name)] ?? [:], in: table)
        }
        var faults: [String] = []
        for (path, item) in try #require(document["paths"] as? [String: [String: Any]]) {
            if path.hasPrefix("/inApps") || path.hasSuffix("verifyReceipt") { continue }  // Apple's contract
            let shared = item["parameters"] as? [[String: Any]] ?? []
            for (method, value) in item where ["get", "post", "put", "patch", "delete"].contains(method) {
                let operation = try #require(value as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any])
                let all = (shared + (operation["parameters"] as? [[String: Any]] ?? [])).map { resolved($0, in: parameters) }
                for parameter in all where parameter["in"] as? String == "path" {
                    let schema = resolved(parameter["schema"] as? [String: Any] ?? [:], in: schemas)
                    if schema["pattern"] == nil && schema["enum"] == nil {
                        faults.append("\(method) \(path): path parameter \(parameter["name"] ?? "?") has neither pattern nor enum")
                    }
                }
                if (!all.isEmpty || operation["requestBody"] != nil), responses["400"] == nil { faults.append("\(method) \(path): no 400") }
                if all.contains(where: { $0["name"] as? String == "world" }), responses["404"] == nil { faults.append("\(method) \(path): no 404") }
                let body = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                if body?["application/json"] != nil, responses["413"] == nil { faults.append("\(method) \(path): no 413") }
            }
        }
        #expect(faults.isEmpty, "\(faults.sorted().joined(separator: "\n"))")
    }
}
