import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreEngine
import StoreModel
@testable import StoreServer
import StoreSigning
import StoreTestSupport
import Testing

/// Faults the reliability suite (issue 15, `reliability/`) found over real sockets, pinned here
/// in-process so a regression fails `swift test` too.
@Suite(.serialized, .removesTemporaryFolders) struct ReliabilityRegressionTests {
    static let bundle = "com.example.reliability"

    func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 91, environment: .sandbox, name: "Reliability", catalogJSON: testCatalogJSON),
        ], body)
    }

    /// A 100 MB upload got no answer until 64 MB of it had been read: a body announced larger
    /// than the drain bound is now refused before any of it is read.
    @Test func aBodyAnnouncedAsHundredMegabytesIsRefusedUnread() async throws {
        let head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/storekit/v1/apps/x/purchases",
                               headerFields: [.contentLength: "104857600"])
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        let (buffer, received) = try await request.boundedBody(limit: Request.maxJSONBody)
        #expect(received == 104_857_600)
        #expect(buffer.readableBytes == 0)
    }

    /// `a%00b` and 64 KB customer names were looked up (and listed as empty customers).
    @Test func pathIdentifiersWithControlCharactersOrOfKilobytesAre400() async throws {
        try await withServer { server in
            for customer in ["a%00b", "x%0D%0Ay", String(repeating: "c", count: 2000)] {
                let answer = try await server.request(.GET, "/storekit/v1/apps/\(Self.bundle)/customers/\(customer)/transactions")
                #expect(answer.status == 400, "\(customer.prefix(20)): \(answer.status)")
                #expect(answer.json["error"] as? String == "malformedRequest")
            }
            // Invalid UTF-8 (sent raw over a socket by reliability/checks_hostile.py; this client re-encodes it).
            #expect(StoreRequestContext.percentDecoded("%FF%FE") == nil && StoreRequestContext.percentDecoded("x%C3%28") == nil)
            #expect(StoreRequestContext.percentDecoded("50%off%20now") == "50%off now")
            // Names that only look odd are still names.
            let plain = try await server.request(.GET, "/storekit/v1/apps/\(Self.bundle)/customers/50%25off/transactions")
            #expect(plain.status == 200)
        }
    }

    /// A key of a deleted world still opened the Server API (answering 404 instead of 401).
    @Test func aKeyOfADeletedWorldIsUnauthenticated() async throws {
        try await withServer { server in
            _ = try await server.store.createWorld("doomed")
            let signer = try APITokenSigner(generated: try await server.store.world("doomed").createAPIKey(bundleId: Self.bundle))
            func call() async throws -> Int {
                var request = HTTPClientRequest(url: server.base + "/inApps/v1/transactions/2000000000000001")
                request.headers.add(name: "Authorization", value: "Bearer " + signer.token(now: Date()))
                return Int(try await server.client.execute(request, timeout: .seconds(30)).status.code)
            }
            #expect(try await call() == 404)
            try await server.store.deleteWorld("doomed")
            #expect(try await call() == 401)
        }
    }
}
