import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

/// The App Store Server API over raw HTTP, shaped like Apple's Swift client sends it: fractional
/// `iat`/`exp`, lowercase booleans, query parameters in random order, UPPERCASE UUIDs.
@Suite(.serialized, .removesTemporaryFolders) struct ServerAPITests {
    static let bundle = "com.example.serverapi"

    struct Fixture {
        let server: LiveServer
        let signer: APITokenSigner
        let customer: String
        let ids: [String]

        func call(
            _ method: HTTPMethod, _ path: String, body: Data? = nil, token: String? = nil, options: APITokenSigner.Options = .swift
        ) async throws -> LiveServer.Answer {
            try await server.request(method, path, body: body, headers: [
                ("Authorization", "Bearer " + (token ?? signer.token(now: Date(), options: options))), ("Accept", "application/json"),
            ])
        }

        func transactionIds(_ answer: LiveServer.Answer) throws -> [String] {
            let signed = answer.json["signedTransactions"] as? [String] ?? []
            return try signed.map { jws in
                let parts = jws.split(separator: ".")
                let payload = try #require(Base64URL.decode(parts[1]))
                let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
                return try #require(object["transactionId"] as? String)
            }
        }
    }

    func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 77, environment: .sandbox, name: "API", catalogJSON: catalogJSON),
        ], transport: .router) { server in
            let generated = try await server.store.world(AppStore.defaultWorld).createAPIKey(bundleId: Self.bundle)
            let signer = try APITokenSigner(generated: generated)
            var ids: [String] = []
            for product in ["t.seeds", "t.history", "t.seeds", "t.plus"] {
                let answer = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/purchases", ["productId": product, "customer": "ana"])
                #expect(answer.status == 200)
                ids.append(try #require((answer.json["transaction"] as? [String: Any])?["transactionId"] as? String))
            }
            try await body(Fixture(server: server, signer: signer, customer: "ana", ids: ids))
        }
    }

    @Test func swiftClientTokensWithFractionalDatesAreAccepted() async throws {
        try await withFixture { f in
            for options in [APITokenSigner.Options.swift, .python, .init(includeIssuedAt: true, fractionalDates: true, audienceAsArray: true)] {
                let answer = try await f.call(.GET, "/inApps/v1/transactions/\(f.ids[0])", options: options)
                #expect(answer.status == 200)
                #expect(answer.contentType == "application/json")
                #expect(answer.json["signedTransactionInfo"] is String)
            }
        }
    }

    @Test func badTokensAre401PlainText() async throws {
        try await withFixture { f in
            let tokens = [
                f.signer.token(now: Date(), options: .init(includeIssuedAt: true, fractionalDates: true, lifetime: -600)),   // expired
                f.signer.token(now: Date(), options: .init(includeIssuedAt: true, fractionalDates: true, lifetime: 7200)),   // too long
                f.signer.token(now: Date(), options: .init(includeIssuedAt: false, fractionalDates: false, audience: "appstoreconnect-v2")),
                f.signer.token(now: Date(), options: .init(includeIssuedAt: false, fractionalDates: false, algorithm: "HS256")),
                "not.a.jwt", "", "a.b",
            ]
            for token in tokens {
                let answer = try await f.call(.GET, "/inApps/v1/transactions/\(f.ids[0])", token: token)
                #expect(answer.status == 401, "token \(token.prefix(20))")
                #expect(answer.contentType == "text/plain")
                #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("Unauthenticated"))
            }
        }
    }

    @Test func booleansAnyCaseAndParametersInAnyOrder() async throws {
        try await withFixture { f in
            let path = "/inApps/v2/history/\(f.ids[0])"
            let a = try await f.call(.GET, path + "?revoked=false&productId=t.seeds&productType=CONSUMABLE&productId=t.history")
            let b = try await f.call(.GET, path + "?productId=t.history&productType=CONSUMABLE&revoked=False&productId=t.seeds")
            #expect(a.status == 200 && b.status == 200)
            #expect(try f.transactionIds(a) == [f.ids[0], f.ids[2]])
            #expect(try f.transactionIds(a) == f.transactionIds(b))
            for value in ["true", "TRUE", "True"] {
                let revoked = try await f.call(.GET, path + "?revoked=\(value)")
                #expect(revoked.status == 200)
                #expect(try f.transactionIds(revoked).isEmpty)
            }
            let bad = try await f.call(.GET, path + "?revoked=yes")
            #expect(bad.status == 400)
            #expect(bad.contentType == "application/json")
            #expect(bad.json["errorCode"] as? Int == 4_000_030)
        }
    }

    @Test func uppercaseUUIDsAreAcceptedAndStoredLowercase() async throws {
        try await withFixture { f in
            let token = UUID().uuidString  // uppercase, as Swift's uuidString
            let body = try JSONSerialization.data(withJSONObject: ["appAccountToken": token])
            let set = try await f.call(.PUT, "/inApps/v1/transactions/\(f.ids[1])/appAccountToken", body: body)
            #expect(set.status == 200)
            let info = try await f.call(.GET, "/inApps/v1/transactions/\(f.ids[1])")
            let jws = try #require(info.json["signedTransactionInfo"] as? String)
            let payload = try #require(Base64URL.decode(jws.split(separator: ".")[1]))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect(object["appAccountToken"] as? String == token.lowercased())

            let v1 = try JSONSerialization.data(withJSONObject: [
                "customerConsented": true, "consumptionStatus": 1, "platform": 1, "sampleContentProvided": false,
                "deliveryStatus": 0, "appAccountToken": UUID().uuidString, "accountTenure": 0, "playTime": 0,
                "lifetimeDollarsRefunded": 0, "lifetimeDollarsPurchased": 0, "userStatus": 0,
            ] as [String: Any])
            #expect(try await f.call(.PUT, "/inApps/v1/transactions/consumption/\(f.ids[0])", body: v1).status == 202)
        }
    }

    @Test func historyPagesAndRevisions() async throws {
        try await withFixture { f in
            let first = try await f.call(.GET, "/inApps/v2/history/\(f.ids[3])?sort=ASCENDING")
            #expect(first.json["hasMore"] as? Bool == false)
            #expect(first.json["bundleId"] as? String == Self.bundle)
            #expect(first.json["appAppleId"] as? Int == 77)
            #expect(first.json["environment"] as? String == "Sandbox")
            #expect(try f.transactionIds(first) == f.ids)
            let revision = try #require(first.json["revision"] as? String)
            let resumed = try await f.call(.GET, "/inApps/v2/history/\(f.ids[3])?revision=\(revision)")
            #expect(try f.transactionIds(resumed).isEmpty)
            let finish = try await f.call(.POST, "/inApps/v1/transactions/\(f.ids[0])/finish")
            #expect(finish.status == 200)
            let v1 = try await f.call(.GET, "/inApps/v1/history/\(f.ids[3])")
            #expect(try f.transactionIds(v1) == Array(f.ids.dropFirst()))
        }
    }

    @Test func badInputGetsApplesErrorNeverA5xx() async throws {
        try await withFixture { f in
            // Each odd request and Apple's answer to it: the status and the errorCode of its body
            // (0: a 200 whose body is checked below).
            let cases: [(String, Int, Int)] = [
                ("/inApps/v1/transactions/%00", 400, 4_000_006),
                ("/inApps/v1/transactions/99999999999999999999999", 400, 4_000_006),
                ("/inApps/v2/history/1?startDate=99999999999999999999&endDate=", 400, 4_000_015),
                ("/inApps/v2/history/\(f.ids[0])?revision=%FF%FE", 400, 4_000_005),
                ("/inApps/v2/history/\(f.ids[0])?startDate=-1", 400, 4_000_015),
                ("/inApps/v1/lookup/%20", 200, 0),
                ("/inApps/v2/refund/lookup/abc", 400, 4_000_006),
                ("/inApps/v1/transactions/appTransactions/0", 404, 4_040_010),  // digits, so well formed; no such transaction
                ("/inApps/v1/history/\(f.ids[0])?endDate=0", 200, 0),
            ]
            for (path, status, code) in cases {
                let answer = try await f.call(.GET, path)
                #expect(answer.status == status, "\(path) → \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                if code != 0 {
                    #expect(answer.json["errorCode"] as? Int == code, "\(path) → \(String(decoding: answer.body, as: UTF8.self))")
                }
            }
            // An order ID that matches nothing is Apple's status 1 (invalid), not an error; history
            // ending at 1970 holds nothing.
            let lookup = try await f.call(.GET, "/inApps/v1/lookup/%20")
            #expect(lookup.json["status"] as? Int == 1 && (lookup.json["signedTransactions"] as? [Any])?.isEmpty != false)
            let ended = try await f.call(.GET, "/inApps/v1/history/\(f.ids[0])?endDate=0")
            #expect((ended.json["signedTransactions"] as? [Any])?.isEmpty == true && ended.json["hasMore"] as? Bool == false)
            let bodies: [Data] = [Data(), Data("null".utf8), Data("[]".utf8), Data("{\"appAccountToken\": 5}".utf8), Data("{".utf8), Data(repeating: 0x20, count: 200_000)]
            for body in bodies {
                for path in ["/inApps/v1/transactions/\(f.ids[0])/appAccountToken", "/inApps/v2/transactions/consumption/\(f.ids[0])", "/inApps/v1/transactions/consumption/\(f.ids[0])"] {
                    let answer = try await f.call(.PUT, path, body: body)
                    #expect((400..<500).contains(answer.status), "\(path) \(body.count) bytes → \(answer.status)")
                }
            }
        }
    }

    @Test func errorBodiesAreApples() async throws {
        try await withFixture { f in
            let answer = try await f.call(.GET, "/inApps/v1/transactions/abc")
            #expect(answer.status == 400)
            #expect(answer.contentType == "application/json")
            #expect(answer.json["errorCode"] as? Int == 4_000_006)
            #expect(answer.json["errorMessage"] as? String == "Invalid transaction id.")
            let missing = try await f.call(.GET, "/inApps/v1/transactions/123456789")
            #expect(missing.status == 404)
            #expect(missing.json["errorCode"] as? Int == 4_040_010)
            let dates = try await f.call(.GET, "/inApps/v2/history/\(f.ids[0])?endDate=5&startDate=5")
            #expect(dates.json["errorCode"] as? Int == 4_000_013)
        }
    }
}
