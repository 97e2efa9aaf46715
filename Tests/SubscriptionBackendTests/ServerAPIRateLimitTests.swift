import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreShared
import StoreSigning
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// The backend's Server API client keeps within Apple's rate limits ("Identifying rate limits"):
/// it paces calls to Apple's hosts at Apple's published rates, and a 429 is tried again after the
/// time its `Retry-After` names (Apple's form: a UNIX time in milliseconds).
@Suite struct ServerAPIRateLimitTests {
    @Test func applesHostsArePacedAtApplesRatesAndOtherHostsAreNot() {
        #expect(ServerAPIPacer.appleRate(baseURL: "https://api.storekit.itunes.apple.com") == 50)
        #expect(ServerAPIPacer.appleRate(baseURL: "https://api.storekit-sandbox.itunes.apple.com") == 5)
        #expect(ServerAPIPacer.appleRate(baseURL: "http://127.0.0.1:8080") == nil)
    }

    @Test func retryAfterIsReadAsApplesUnixMillisecondsOrAsSeconds() {
        #expect(ServerAPIFailure.retryDelay(retryAfter: "1795800001500", nowMs: 1_795_800_000_000) == .milliseconds(1500))
        #expect(ServerAPIFailure.retryDelay(retryAfter: "2", nowMs: 1_795_800_000_000) == .seconds(2))
        #expect(ServerAPIFailure.retryDelay(retryAfter: "1795799999000", nowMs: 1_795_800_000_000) == .milliseconds(0))
        #expect(ServerAPIFailure.retryDelay(retryAfter: "soon", nowMs: 0) == nil)
    }

    /// A server that answers the first two calls 429 with `Retry-After` 300 ms ahead, then a page:
    /// the client waits each time and returns the page.
    @Test func a429IsTriedAgainAfterItsRetryAfter() async throws {
        let calls = Mutex<[Int64]>([])
        let router = Router()
        router.get("/inApps/v2/history/:id") { _, _ -> Response in
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let count = calls.withLock { $0.append(now); return $0.count }
            if count <= 2 {
                return Response(status: .tooManyRequests, headers: [.contentType: "application/json", .retryAfter: String(now + 300)],
                                body: .init(byteBuffer: ByteBuffer(string: #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)))
            }
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"revision":"r1","hasMore":false,"signedTransactions":[]}"#)))
        }
        let server = try await serveOnLoopback(router)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let signer = try APITokenSigner(generated: APIKeyFactory.generate(bundleId: "com.example.limits"))
            let client = ServerAPIClient(baseURL: "http://127.0.0.1:\(server.port)", signer: signer, http: http, clock: .system)
            let page = try await client.transactionHistory(transactionId: "2000000000000001", revision: nil)
            #expect(page.revision == "r1")
            let times = calls.withLock { $0 }
            #expect(times.count == 3)
            if times.count == 3 {
                #expect(times[1] - times[0] >= 290 && times[2] - times[1] >= 290, "each retry waited for Retry-After: \(times)")
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await server.stop()
    }
}
