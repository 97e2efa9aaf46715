import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// The identity routes over HTTP: each answer's status and JSON, as openapi.json documents them.
@Suite(.removesTemporaryFolders) struct IdentityHTTPTests {
    @Test func logInGrantsAttributesAndDeletionAnswerAsDocumented() async throws {
        let kit = try SignedDataKit()
        try await withServedBackend(kit) { _, server, http in
            func call(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> (Int, [String: Any]) {
                var request = HTTPClientRequest(url: server + "/v1/customers/" + path)
                request.method = method
                if let body { request.body = .bytes(ByteBuffer(string: body)) }
                let response = try await http.execute(request, timeout: .seconds(30))
                let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
            }
            let signed = try kit.sign(kit.transaction(id: "600", original: "600", purchase: SignedDataKit.start,
                                                      expires: SignedDataKit.start + 30 * SignedDataKit.day))
            #expect(try await call(.POST, "ann/transactions", "{\"signedTransaction\": \"\(signed)\"}").0 == 200)
            #expect(try await call(.POST, "bob/transactions", "{\"signedTransaction\": \"\(signed)\"}").0 == 200)   // transferred

            let (renamed, login) = try await call(.POST, "%24anon%3Aphone/alias", "{\"newAppUserId\": \"bob\"}")
            #expect(renamed == 200 && login["created"] as? Bool == false)
            #expect((login["customer"] as? [String: Any])?["appUserId"] as? String == "bob")
            let (conflict, refused) = try await call(.POST, "ann/alias", "{\"newAppUserId\": \"bob\"}")
            #expect(conflict == 409 && refused["error"] as? String == "aliasConflict")
            let (anonymousTarget, anonymousBody) = try await call(.POST, "ann/alias", "{\"newAppUserId\": \"$anon:x\"}")
            #expect(anonymousTarget == 422 && anonymousBody["error"] as? String == "invalidRequest")

            let (set, info) = try await call(.PUT, "bob/attributes", "{\"attributes\": {\"$email\": {\"value\": \"bob@example.com\"}}}")
            #expect(set == 200 && ((info["subscriberAttributes"] as? [String: Any])?["$email"] as? [String: Any])?["value"] as? String == "bob@example.com")
            #expect(try await call(.PUT, "bob/attributes", "{\"attributes\": {\"k\": {}}}").0 == 400, "value must be given (null removes)")
            let (bad, badBody) = try await call(.PUT, "bob/attributes", "{\"attributes\": {\"$nope\": {\"value\": \"x\"}}}")
            #expect(bad == 400 && badBody["error"] as? String == "invalidAttributes" && (badBody["message"] as? String)?.contains("$nope") == true)

            let (granted, withGrant) = try await call(.POST, "bob/entitlements/gold%20tier/grant", "{\"duration\": \"weekly\"}")
            let gold = (withGrant["entitlements"] as? [String: Any])?["gold tier"] as? [String: Any]
            #expect(granted == 200 && gold?["store"] as? String == "promotional" && gold?["isActive"] as? Bool == true)
            #expect(try await call(.POST, "bob/entitlements/gold/grant", "{\"duration\": \"fortnightly\"}").0 == 400)
            #expect(try await call(.POST, "bob/entitlements/gold/grant", "{}").0 == 400)
            #expect(try await call(.POST, "bob/entitlements/gold/grant", "{\"duration\": \"daily\", \"expiresDate\": 1}").0 == 400)
            #expect(try await call(.POST, "bob/entitlements/gold/grant", "{\"expiresDate\": 1}").1["error"] as? String == "invalidGrant")
            #expect(try await call(.POST, "bob/entitlements/gold/grant", "{\"duration\": \"daily\", \"bundleId\": \"com.other\"}").0 == 404)
            #expect(try await call(.POST, "nobody/entitlements/gold/revoke").0 == 404)

            let (deleted, gone) = try await call(.DELETE, "bob")
            #expect(deleted == 200 && gone["deleted"] as? String == "bob")
            #expect(try await call(.DELETE, "bob").0 == 404)
            #expect(try await call(.GET, "bob").0 == 404)
            #expect(try await call(.GET, "%24anon%3Aphone").0 == 404, "the deleted customer's aliases are gone too")
        }
    }

    @Test func aKeptPurchaseIsA409ThatNamesNobody() async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], configure: { $0.apps[0].transferPolicy = .keep }) { test in
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let server = BackendHTTPServer(backend: test.backend, reconciler: Reconciler(backend: test.backend, http: http),
                                           dispatcher: WebhookDispatcher(backend: test.backend, http: http))
            let running = try await serveOnLoopback(server.makeRouter())
            defer { Task { await running.stop(); try? await http.shutdown() } }
            let signed = try kit.sign(kit.transaction(id: "700", original: "700", purchase: SignedDataKit.start,
                                                      expires: SignedDataKit.start + 30 * SignedDataKit.day))
            var codes: [Int] = []
            var last = ""
            for user in ["ann%40example.com", "bob"] {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(running.port)/v1/customers/\(user)/transactions")
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: "{\"signedTransaction\": \"\(signed)\"}"))
                let response = try await http.execute(request, timeout: .seconds(30))
                codes.append(Int(response.status.code))
                last = String(buffer: try await response.body.collect(upTo: 1 << 20))
            }
            #expect(codes == [200, 409])
            #expect(last.contains("purchaseBelongsToAnotherCustomer") && !last.contains("ann"))
        }
    }
}
