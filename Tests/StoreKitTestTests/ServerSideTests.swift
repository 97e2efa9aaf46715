import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreTestSupport
import Synchronization
import StoreKit
import StoreKitTest
import StoreSigning
import Testing

/// A developer's server test against the store the session's app test bought in: the Server API
/// with the session's key, the answer verified with the session's root certificate.
@Suite(.timeLimit(.minutes(2))) struct ServerSideTests {
    @Test func theServerAPISeesTheSessionsPurchaseSignedUnderItsRoot() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        let key = try await session.makeServerAPIKey()
        #expect(key.privateKeyP8.contains("BEGIN PRIVATE KEY") && key.bundleID == session.bundleID)
        let token = try APITokenSigner(keyId: key.keyID, issuerId: key.issuerID, bundleId: key.bundleID, privateKeyP8: key.privateKeyP8).token(now: Date())

        var request = HTTPClientRequest(url: session.serverAPIBaseURL.absoluteString + "/inApps/v1/transactions/\(bought.id)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 1 << 20)
        #expect(response.status == .ok, "\(String(buffer: body))")
        struct Answer: Decodable { var signedTransactionInfo: String }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(buffer: body))
        struct Payload: Decodable { var transactionId: String; var environment: String; var bundleId: String }
        let payload = try JWSVerifier(rootCertificateDER: Array(session.rootCertificate))
            .verifyAndDecode(Payload.self, from: answer.signedTransactionInfo)
        #expect(payload.transactionId == String(bought.id) && payload.environment == "Sandbox" && payload.bundleId == session.bundleID)

        // Another session's key cannot read this session's transaction.
        let other = try SKTestSession(contentsOf: Configurations.garden)
        let otherKey = try await other.makeServerAPIKey()
        let otherToken = try APITokenSigner(keyId: otherKey.keyID, issuerId: otherKey.issuerID, bundleId: otherKey.bundleID,
                                            privateKeyP8: otherKey.privateKeyP8).token(now: Date())
        var foreign = HTTPClientRequest(url: other.serverAPIBaseURL.absoluteString + "/inApps/v1/transactions/\(bought.id)")
        foreign.headers.add(name: "Authorization", value: "Bearer \(otherToken)")
        let refused = try await HTTPClient.shared.execute(foreign, timeout: .seconds(20))
        #expect(refused.status != .ok)
    }

    @Test func notificationsReachTheSessionsURLSignedUnderItsRoot() async throws {
        let received = Mutex<[String]>([])
        let router = Router()
        router.post("notifications") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append(String(buffer: body)) }
            return Response(status: .ok)
        }
        let receiver = try await LoopbackServer.start { listening in
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.2", port: 0)),
                                  onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) })
            return { try await app.runService(gracefulShutdownSignals: []) }
        }
        defer { Task { await receiver.stop() } }

        let session = try SKTestSession(contentsOf: Configurations.garden)
        try await session.setNotificationURL(URL(string: "http://127.0.0.2:\(receiver.port)/notifications"))
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        // Delivery is asynchronous, as the App Store's is: wait for it (the test's time limit bounds the wait).
        while received.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        struct Body: Decodable { var signedPayload: String }
        struct Payload: Decodable {
            struct Data: Decodable { var bundleId: String; var environment: String; var signedTransactionInfo: String }
            var notificationType: String
            var data: Data
        }
        let verifier = try JWSVerifier(rootCertificateDER: Array(session.rootCertificate))
        let body = try JSONDecoder().decode(Body.self, from: Data(received.withLock { $0[0] }.utf8))
        let payload = try verifier.verifyAndDecode(Payload.self, from: body.signedPayload)
        #expect(payload.notificationType == "SUBSCRIBED" && payload.data.bundleId == session.bundleID && payload.data.environment == "Sandbox")
        struct Signed: Decodable { var transactionId: String }
        #expect(try verifier.verifyAndDecode(Signed.self, from: payload.data.signedTransactionInfo).transactionId == String(bought.id))

        try await session.setNotificationURL(nil)
        await #expect(throws: SKTestError.self) { try await session.setNotificationURL(URL(string: "ftp://example.com/x")) }
    }
}
