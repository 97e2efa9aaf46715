import Foundation
import NIOHTTP1
import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

/// The device and admin routes behind StoreKit's messages, review prompt, price-increase consent,
/// billing-issue resolution, `AppStore.sync()` and the manage-subscriptions sheet, over real HTTP,
/// on their success paths and their main refusals (not only their simulated errors).
@Suite(.serialized, .removesTemporaryFolders) struct LifecycleRoutesTests {
    static let bundle = AdminAPITests.bundle

    func withWorld(_ body: (LiveServer, String) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 77, environment: .sandbox, name: "Admin", catalogJSON: adminCatalogJSON),
        ], transport: .router) { server in
            let world = "life-\(UUID().uuidString.prefix(8).lowercased())"
            #expect(try await server.json(.POST, "/admin/v1/worlds", ["id": world]).status == 201)
            try await body(server, world)
        }
    }

    func device(_ world: String, _ customer: String, _ path: String) -> String {
        "/storekit/v1/worlds/\(world)/apps/\(Self.bundle)/customers/\(customer)\(path)"
    }

    func subscribe(_ server: LiveServer, _ world: String, _ customer: String) async throws -> [String: Any] {
        let bought = try await AdminAPITests.buy(server, world: world, product: "a.pro", customer: customer)
        #expect(bought.status == 200, "\(String(decoding: bought.body, as: UTF8.self))")
        return try #require(bought.json["transaction"] as? [String: Any])
    }

    @Test func priceIncreaseConsentThroughItsMessage() async throws {
        try await withWorld { server, world in
            let tx = try #require(try await subscribe(server, world, "ana")["transactionId"] as? String)
            let increase = "/admin/v1/worlds/\(world)/transactions/\(tx)/price-increase"
            let asked = try await server.json(.POST, increase, ["newPrice": "5.99"])
            #expect(asked.status == 200)
            let pending = try #require(asked.json["renewalInfo"] as? [String: Any])
            #expect(pending["priceIncreaseStatus"] as? Int == 0 && pending["renewalPrice"] as? Int == 5_990)
            #expect(AdminAPITests.payload(try #require(asked.json["signedRenewalInfo"] as? String))["renewalPrice"] as? Int == 5_990)

            // The consent sheet waits as a StoreKit message until the app displays it.
            let listed = try await server.request(.GET, device(world, "ana", "/messages"))
            #expect(listed.status == 200)
            let messages = try #require(listed.json["messages"] as? [[String: Any]])
            #expect(messages.count == 1)
            let message = try #require(messages.first)
            #expect(message["reason"] as? String == "priceIncreaseConsent" && message["newPrice"] as? Int == 5_990)
            #expect(message["originalTransactionId"] as? String == tx && message["productId"] as? String == "a.pro")
            #expect(message["displayedDate"] == nil)
            let id = try #require(message["id"] as? String)
            let shown = try await server.request(.POST, device(world, "ana", "/messages/\(id)/display"))
            #expect(shown.status == 200 && shown.json["id"] as? String == id && shown.json["displayedDate"] is Int)
            #expect((try await server.request(.GET, device(world, "ana", "/messages")).json["messages"] as? [Any])?.isEmpty == true)
            let unknown = try await server.request(.POST, device(world, "ana", "/messages/nope/display"))
            #expect(unknown.status == 404 && unknown.json["error"] as? String == "notFound")

            let consented = try await server.request(.POST, increase + "/consent")
            #expect(consented.status == 200)
            let info = try #require(consented.json["renewalInfo"] as? [String: Any])
            #expect(info["priceIncreaseStatus"] as? Int == 1 && info["autoRenewStatus"] as? Int == 1 && info["renewalPrice"] as? Int == 5_990)

            // Refusals: a price that is not a price, an unknown mode, a transaction that doesn't exist.
            let badPrice = try await server.json(.POST, increase, ["newPrice": "cheap"])
            #expect(badPrice.status == 400 && badPrice.json["error"] as? String == "malformedRequest")
            let badMode = try await server.json(.POST, increase, ["newPrice": "6.99", "mode": "shout"])
            #expect(badMode.status == 400 && badMode.json["error"] as? String == "malformedRequest")
            let missing = try await server.request(.POST, "/admin/v1/worlds/\(world)/transactions/999999/price-increase/consent")
            #expect(missing.status == 404 && missing.json["error"] as? String == "transactionNotFound")
        }
    }

    @Test func aDeclinedPriceIncreaseTurnsAutoRenewOff() async throws {
        try await withWorld { server, world in
            let tx = try #require(try await subscribe(server, world, "ben")["transactionId"] as? String)
            let increase = "/admin/v1/worlds/\(world)/transactions/\(tx)/price-increase"
            #expect(try await server.json(.POST, increase, ["newPrice": "7.99", "mode": "consent"]).status == 200)
            let declined = try await server.request(.POST, increase + "/decline")
            #expect(declined.status == 200)
            let info = try #require(declined.json["renewalInfo"] as? [String: Any])
            #expect(info["autoRenewStatus"] as? Int == 0 && info["renewalDate"] == nil)
            #expect((try await server.request(.GET, device(world, "ben", "/messages")).json["messages"] as? [Any])?.isEmpty == true)
            let events = try await server.request(.GET, "/admin/v1/worlds/\(world)/events")
            let names = (events.json["events"] as? [[String: Any]] ?? []).map { [$0["type"] as? String, $0["subtype"] as? String].compactMap { $0 }.joined(separator: "/") }
            #expect(names == ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"])
        }
    }

    @Test func requestReviewShowsThreePromptsAYearAndOnePerVersion() async throws {
        try await withWorld { server, world in
            let path = device(world, "cy", "/request-review")
            func ask(_ version: String) async throws -> [String: Any] {
                let answer = try await server.json(.POST, path, ["appVersion": version])
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                return answer.json
            }
            #expect(try await ask("1.0")["wouldShowPrompt"] as? Bool == true)
            let again = try await ask("1.0")
            #expect(again["wouldShowPrompt"] as? Bool == false && again["reason"] as? String == "alreadyShownForVersion")
            #expect(try await ask("1.1")["wouldShowPrompt"] as? Bool == true)
            #expect(try await ask("1.2")["wouldShowPrompt"] as? Bool == true)
            let fourth = try await ask("1.3")
            #expect(fourth["wouldShowPrompt"] as? Bool == false && fourth["reason"] as? String == "limitReached")

            for body in [Data(#"{"appVersion":""}"#.utf8), Data("{}".utf8), Data("not json".utf8), Data(#"{"appVersion":7}"#.utf8)] {
                let refused = try await server.request(.POST, path, body: body)
                #expect(refused.status == 400 && refused.json["error"] as? String == "malformedRequest", "\(String(decoding: body, as: UTF8.self))")
            }
            let unknownApp = try await server.json(.POST, "/storekit/v1/worlds/\(world)/apps/com.nope/customers/cy/request-review", ["appVersion": "1"])
            #expect(unknownApp.status == 404 && unknownApp.json["error"] as? String == "appNotFound")
        }
    }

    @Test func resolveIssueEndsTheBillingRetry() async throws {
        try await withWorld { server, world in
            let first = try await subscribe(server, world, "dee")
            let tx = try #require(first["transactionId"] as? String)
            let resolve = "/admin/v1/worlds/\(world)/transactions/\(tx)/resolve-issue"
            // Nothing to resolve while the subscription is in good standing.
            let early = try await server.request(.POST, resolve)
            #expect(early.status == 409 && early.json["error"] as? String == "invalidAction")

            #expect(try await server.json(.PATCH, "/admin/v1/worlds/\(world)/settings", ["failRenewals": true]).status == 200)
            #expect(try await server.json(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "32d"]).status == 200)
            let retrying = try await server.request(.GET, device(world, "dee", "/subscriptions"))
            let before = try #require((retrying.json["statuses"] as? [[String: Any]])?.first)
            #expect(before["state"] as? String == "inBillingRetryPeriod" && before["status"] as? Int == 3)
            let billing = try await server.request(.GET, device(world, "dee", "/messages"))
            #expect((billing.json["messages"] as? [[String: Any]])?.map { $0["reason"] as? String } == ["billingIssue"])

            let resolved = try await server.request(.POST, resolve)
            #expect(resolved.status == 200 && resolved.json["status"] as? String == "purchased")
            let renewal = try #require(resolved.json["transaction"] as? [String: Any])
            #expect(renewal["transactionReason"] as? String == "RENEWAL" && renewal["originalTransactionId"] as? String == tx)
            let after = try await server.request(.GET, device(world, "dee", "/subscriptions"))
            let status = try #require((after.json["statuses"] as? [[String: Any]])?.first)
            #expect(status["state"] as? String == "subscribed" && status["status"] as? Int == 1)
            #expect(AdminAPITests.payload(try #require(status["signedTransaction"] as? String))["transactionId"] as? String == renewal["transactionId"] as? String)

            let unknown = try await server.request(.POST, "/admin/v1/worlds/\(world)/transactions/not-an-id/resolve-issue")
            #expect(unknown.status == 404 && unknown.json["error"] as? String == "transactionNotFound")
        }
    }

    @Test func syncHandsOutEveryTransactionAndManageSubscriptionsShowsTheSheet() async throws {
        try await withWorld { server, world in
            _ = try await subscribe(server, world, "eve")
            var coinIds: [String] = []
            for _ in 0..<2 {
                let coins = try await AdminAPITests.buy(server, world: world, product: "a.coins", customer: "eve")
                coinIds.append(try #require((coins.json["transaction"] as? [String: Any])?["transactionId"] as? String))
            }
            #expect(try await server.request(.POST, device(world, "eve", "/transactions/\(coinIds[0])/finish")).status == 200)

            // AppStore.sync(): the transactions of Transaction.all, signed and verifiable; a finished
            // consumable is no longer among them (StoreKit drops it), the unfinished one is.
            let synced = try await server.request(.POST, device(world, "eve", "/sync"))
            #expect(synced.status == 200)
            let signed = try #require(synced.json["signedTransactions"] as? [String])
            let root = try await server.request(.GET, "/storekit/v1/root-certificate")
            let verifier = try JWSVerifier(rootCertificateDER: Array(root.body))
            let decoded = try signed.map { try verifier.verifyAndDecode(TransactionPayload.self, from: $0) }
            #expect(decoded.map(\.productId).sorted() == ["a.coins", "a.pro"])
            #expect(decoded.first { $0.productId == "a.coins" }?.transactionId == coinIds[1])
            let all = try await server.request(.GET, device(world, "eve", "/transactions"))
            #expect((all.json["signedTransactions"] as? [String])?.map { AdminAPITests.payload($0)["transactionId"] as? String }
                    == signed.map { AdminAPITests.payload($0)["transactionId"] as? String })
            let nobody = try await server.request(.POST, "/storekit/v1/worlds/\(world)/apps/com.nope/customers/eve/sync")
            #expect(nobody.status == 404 && nobody.json["error"] as? String == "appNotFound")

            let sheet = try await server.request(.POST, device(world, "eve", "/manage-subscriptions"))
            #expect(sheet.status == 200 && sheet.json["shown"] as? Bool == true)
            let nowhere = try await server.request(.POST, "/storekit/v1/worlds/\(world)/apps/com.nope/customers/eve/manage-subscriptions")
            #expect(nowhere.status == 404 && nowhere.json["error"] as? String == "appNotFound")
            let noWorld = try await server.request(.POST, "/storekit/v1/worlds/no-such-world/apps/\(Self.bundle)/customers/eve/manage-subscriptions")
            #expect(noWorld.status == 404 && noWorld.json["error"] as? String == "worldNotFound")
        }
    }

    /// `DELETE …/transactions/{id}` (Xcode's Delete) and the `failureError` switch.
    @Test func deleteTransactionAndFailureError() async throws {
        try await withWorld { server, world in
            let tx = try #require(try await subscribe(server, world, "fay")["transactionId"] as? String)
            let deleted = try await server.request(.DELETE, "/admin/v1/worlds/\(world)/transactions/\(tx)")
            #expect(deleted.status == 200 && deleted.json["transactionId"] as? String == tx && deleted.json["deleted"] as? Bool == true)
            let listed = try await server.request(.GET, device(world, "fay", "/subscriptions"))
            #expect((listed.json["statuses"] as? [Any])?.isEmpty == true)
            let again = try await server.request(.DELETE, "/admin/v1/worlds/\(world)/transactions/\(tx)")
            #expect(again.status == 404 && again.json["error"] as? String == "transactionNotFound")

            let bad = try await server.json(.PATCH, "/admin/v1/worlds/\(world)/settings", ["failureError": "paymentCancelled"])
            #expect(bad.status == 400)
            let set = try await server.json(.PATCH, "/admin/v1/worlds/\(world)/settings", ["failTransactions": true, "failureError": "invalidOfferPrice"])
            #expect(set.status == 200 && (set.json["settings"] as? [String: Any])?["failureError"] as? String == "invalidOfferPrice")
            let refused = try await AdminAPITests.buy(server, world: world, product: "a.pro", customer: "gil")
            #expect(refused.json["error"] as? String == "invalidOfferPrice", "\(String(decoding: refused.body, as: UTF8.self))")
        }
    }
}
