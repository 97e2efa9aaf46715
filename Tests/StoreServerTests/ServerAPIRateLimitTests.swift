import Foundation
import StoreEngine
import StoreSigning
import StoreTestSupport
import Testing

/// The Server API's rate limit is a property of each server: two stores in one process, one
/// limited to 2 requests a minute per key and one unlimited, each keep their own.
@Suite(.removesTemporaryFolders) struct ServerAPIRateLimitTests {
    @Test func twoStoresInOneProcessKeepTheirOwnLimits() async throws {
        let app = { try StoreApp(bundleId: ServerAPITests.bundle, appAppleId: 77, environment: .sandbox, name: "API", catalogJSON: catalogJSON) }
        try await LiveServer.with(apps: [try app()], serverAPIRateLimit: 2) { limited in
            try await LiveServer.with(apps: [try app()]) { open in
                func codes(_ server: LiveServer) async throws -> [Int] {
                    let signer = try APITokenSigner(generated: try await server.store.world(AppStore.defaultWorld).createAPIKey(bundleId: ServerAPITests.bundle))
                    var codes: [Int] = []
                    for _ in 0..<4 {
                        let answer = try await server.request(.GET, "/inApps/v1/notifications/test/nope", headers: [
                            ("Authorization", "Bearer " + signer.token(now: Date(), options: .swift)),
                        ])
                        codes.append(answer.status == 429 ? answer.json["errorCode"] as? Int ?? 429 : answer.status)
                    }
                    return codes
                }
                let limitedCodes = try await codes(limited)
                #expect(limitedCodes.suffix(2) == [4_290_000, 4_290_000], "\(limitedCodes)")
                #expect(!(try await codes(open)).contains(4_290_000))
            }
        }
    }

    /// A 429 says when to come back as Apple's does ("Identifying rate limits"): `Retry-After`
    /// holds a UNIX time in milliseconds, the end of the key's minute.
    @Test func a429SaysWhenToComeBackInApplesForm() async throws {
        let app = try StoreApp(bundleId: ServerAPITests.bundle, appAppleId: 77, environment: .sandbox, name: "API", catalogJSON: catalogJSON)
        try await LiveServer.with(apps: [app], serverAPIRateLimit: 1) { server in
            let signer = try APITokenSigner(generated: try await server.store.world(AppStore.defaultWorld).createAPIKey(bundleId: ServerAPITests.bundle))
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            var answers: [LiveServer.Answer] = []
            for _ in 0..<2 {
                answers.append(try await server.request(.GET, "/inApps/v1/notifications/test/nope", headers: [
                    ("Authorization", "Bearer " + signer.token(now: Date(), options: .swift)),
                ]))
            }
            let refused = try #require(answers.last)
            #expect(refused.status == 429 && refused.json["errorCode"] as? Int == 4_290_000)
            let retryAt = refused.headers.first(name: "Retry-After").flatMap { Int64($0) }
            #expect(retryAt.map { $0 > before && $0 <= before + 61_000 } == true, "Retry-After: \(String(describing: retryAt))")
        }
    }
}
