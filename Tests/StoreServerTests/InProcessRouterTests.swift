import Foundation
import Hummingbird
import HummingbirdTesting
import StoreEngine
import StoreModel
import StoreServer
import StoreSigning
import StoreStorage
import StoreTestSupport
import Testing

/// The store's router driven in process with Hummingbird's own testing framework (`.router`): no
/// socket, no port. Live-socket suites (`LiveServer`) keep covering the wire; these cover what the
/// routes answer.
@Suite(.removesTemporaryFolders) struct InProcessRouterTests {
    static let bundle = "com.example.router"

    func withApp(_ body: @Sendable (any TestClientProtocol, AppStore) async throws -> Void) async throws {
        let path = TemporaryFolder.make("router").appendingPathComponent("store.sqlite").path
        let store = try await AppStore.open(database: try await StoreDatabase.open(path: path), apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 42, environment: .sandbox, name: "Router", catalogJSON: catalogJSON),
        ])
        let app = Application(router: StoreHTTPServer(store: store).makeRouter())
        do {
            try await app.test(.router) { client in try await body(client, store) }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func healthOpenAPIAndUnknownPaths() async throws {
        try await withApp { client, _ in
            try await client.execute(uri: "/healthz", method: .get) { response in
                let json = try Self.json(response)
                #expect(response.status == .ok && json["status"] as? String == "ok")
            }
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                let json = try Self.json(response)
                #expect(response.status == .ok && json["openapi"] as? String != nil)
            }
            try await client.execute(uri: "/storekit/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func productsAndAPurchaseWithItsVerifiableTransaction() async throws {
        try await withApp { client, store in
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/products?id=t.plus&id=t.nope", method: .get) { response in
                #expect(response.status == .ok)
                let products = try #require((try Self.json(response))["products"] as? [[String: Any]])
                #expect(products.compactMap { $0["id"] as? String ?? $0["productId"] as? String } == ["t.plus"])
            }
            let body = ByteBuffer(string: #"{"productId":"t.history","customer":"router-ann"}"#)
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/purchases", method: .post,
                                     headers: [.contentType: "application/json"], body: body) { response in
                #expect(response.status == .ok)
                let jws = try #require((try Self.json(response))["signedTransaction"] as? String)
                let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
                let payload = try verifier.verifyAndDecode(TransactionPayload.self, from: jws)
                #expect(payload.productId == "t.history")
            }
            // The same non-consumable again: Apple's refusal, as JSON.
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/purchases", method: .post,
                                     headers: [.contentType: "application/json"], body: body) { response in
                let json = try Self.json(response)
                #expect(response.status == .conflict && json["error"] as? String == "alreadyPurchased")
            }
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/purchases", method: .post,
                                     headers: [.contentType: "application/json"], body: ByteBuffer(string: "{not json")) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// A path the store serves, asked with a method it does not serve: 405 with the methods it
    /// does serve in `Allow` (RFC 9110), not 404; a path it does not serve at all stays 404.
    @Test func anUnservedMethodIs405WithAllow() async throws {
        try await withApp { client, _ in
            try await client.execute(uri: "/healthz", method: .delete) { response in
                #expect(response.status == .methodNotAllowed && response.headers[.allow] == "GET")
                let body = try Self.json(response)
                #expect(body["error"] as? String == "methodNotAllowed")
            }
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/purchases", method: .get) { response in
                #expect(response.status == .methodNotAllowed && response.headers[.allow] == "POST")
            }
            try await client.execute(uri: "/storekit/v1/apps/\(Self.bundle)/nothing-here", method: .get) { response in
                #expect(response.status == .notFound && response.headers[.allow] == nil)
            }
        }
    }
}
