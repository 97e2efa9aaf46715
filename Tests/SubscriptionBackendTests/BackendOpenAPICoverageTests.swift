import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// The backend's `/openapi.json` and its router agree both ways (as the store's
/// OpenAPICoverageTests checks the store's), and every route answers bad input with a 4xx and a
/// clear body, never a 5xx: #14 asks that customer info be documented in the backend's own
/// `/openapi.json`, and bad input must never look like the backend's fault.
@Suite struct BackendOpenAPICoverageTests {
    /// "GET /v1/customers/{}": method and path, parameter names erased (`:appUserId` = `{appUserId}`).
    static func key(_ method: String, _ path: String) -> String {
        var normalized = path.hasPrefix("/") ? path : "/" + path
        normalized = normalized.replacing(/\{[^}]*\}/, with: "{}").replacing(/:[A-Za-z0-9_]+/, with: "{}")
        if normalized.count > 1, normalized.hasSuffix("/") { normalized.removeLast() }
        return method.uppercased() + " " + normalized
    }

    static func documented() throws -> [String: [String: Any]] {
        let data = try #require(EmbeddedResources.data(named: "openapi.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["paths"] as? [String: [String: Any]])
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsServed() async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER]) { test in
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let server = BackendHTTPServer(backend: test.backend, reconciler: Reconciler(backend: test.backend, http: http),
                                           dispatcher: WebhookDispatcher(backend: test.backend, http: http))
            let routes = Set(server.makeRouter().routes.map { Self.key("\($0.method)", "\($0.path)") })
            #expect(routes.count >= 10, "the router lists its routes: \(routes.sorted())")
            let verbs: Set = ["get", "put", "post", "patch", "delete", "head", "options"]
            let documented = Set(try Self.documented().flatMap { path, item in item.keys.filter(verbs.contains).map { Self.key($0, path) } })
            let undocumented = routes.subtracting(documented).sorted()
            let unserved = documented.subtracting(routes).sorted()
            #expect(undocumented.isEmpty, "routes missing from openapi.json:\n\(undocumented.joined(separator: "\n"))")
            #expect(unserved.isEmpty, "openapi.json operations the backend does not serve:\n\(unserved.joined(separator: "\n"))")
            try await http.shutdown()
        }
    }

    /// Every documented operation, sent hostile path values, broken bodies and bad query values:
    /// never a 5xx; the JSON API's refusals are 4xx with `{"error", "message"}`.
    @Test func badInputToEveryRouteIsA4xxWithAClearBody() async throws {
        let kit = try SignedDataKit()
        try await withServedBackend(kit) { _, base, http in

            let hostileSegments = ["%00", "..%2F..%2Fetc%2Fpasswd", "%FF%FE", String(repeating: "x", count: 4_000), "%3Cscript%3E", "a%20b"]
            let badBodies: [String?] = [nil, "", "{not json", "[]", "{\"signedPayload\": 5, \"signedTransaction\": 5}",
                                        "{\"signedPayload\": \"a.b.c\", \"signedTransaction\": \"a.b.c\"}", "\u{0}\u{1}"]
            var checked = 0
            for (path, item) in try Self.documented() {
                for method in item.keys where ["get", "post"].contains(method) {
                    let segments = path.contains("{") ? hostileSegments : [""]
                    for segment in segments {
                        let concrete = path.replacing(/\{[^}]*\}/, with: segment) + "?limit=-5&eventId=%FF&q=%00&next=%2F%2Fevil"
                        for body in method == "post" ? badBodies : [nil] {
                            var request = HTTPClientRequest(url: base + concrete)
                            request.method = method == "post" ? .POST : .GET
                            if let body {
                                request.headers.add(name: "Content-Type", value: "application/json")
                                request.body = .bytes(ByteBuffer(string: body))
                            }
                            let response = try await http.execute(request, timeout: .seconds(30))
                            let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
                            let status = Int(response.status.code)
                            checked += 1
                            #expect(status < 500, "\(method.uppercased()) \(concrete.prefix(120)) → \(status) \(text.prefix(200))")
                            let jsonAPI = path.hasPrefix("/v1/") || path.hasPrefix("/apple/")
                            if jsonAPI && (400..<500).contains(status) {
                                let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
                                #expect(object?["error"] is String && object?["message"] is String,
                                        "\(method.uppercased()) \(path) → \(status) without {error, message}: \(text.prefix(200))")
                            }
                        }
                    }
                }
            }
            // A notification for an app the backend does not serve, and a body too large.
            var foreign = HTTPClientRequest(url: base + "/apple/notifications/com.example.other")
            foreign.method = .POST
            foreign.body = .bytes(ByteBuffer(string: "{\"signedPayload\": \"\(try kit.notification("SUBSCRIBED", signed: SignedDataKit.start, transaction: nil, renewal: nil))\"}"))
            #expect(Int(try await http.execute(foreign, timeout: .seconds(30)).status.code) == 403)
            var huge = HTTPClientRequest(url: base + "/v1/customers/u/transactions")
            huge.method = .POST
            huge.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "a"), count: 300 * 1024))
            #expect(Int(try await http.execute(huge, timeout: .seconds(30)).status.code) == 413)
            #expect(checked > 60)
        }
    }
}
