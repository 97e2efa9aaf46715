import Foundation
import StoreEngine
import StoreSigning
import Testing

/// App receipts and `verifyReceipt` against a live store: Apple's `status` codes for every way a
/// request can be wrong, and Apple's responseBody for a good one.
@Suite struct VerifyReceiptTests {
    func receipt(_ store: ClientTestStore, _ customer: String, bundle: String = ClientTestStore.bundle, world: String = "default") async throws -> String {
        let answer = try await store.admin(.GET, ClientTestStore.api(world) + "/apps/\(bundle)/customers/\(customer)/receipt")
        return try #require(answer["receiptData"] as? String)
    }

    func verify(_ store: ClientTestStore, _ body: [String: Any], sandbox: Bool = true) async throws -> [String: Any] {
        let answer = try await store.request(.POST, sandbox ? "/sandbox/verifyReceipt" : "/verifyReceipt",
                                             body: try JSONSerialization.data(withJSONObject: body))
        #expect(answer.status == 200)
        return answer.json
    }

    func status(_ json: [String: Any]) -> Int? { (json["status"] as? NSNumber)?.intValue }

    @Test func aValidReceiptAnswersApplesResponseBody() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let guide = try await store.purchaseElsewhere("k.guide", customer: "ida", world: world)
            let plus = try await store.purchaseElsewhere("k.plus", customer: "ida", world: world)
            let seeds = try await store.purchaseElsewhere("k.seeds", customer: "ida", world: world)
            func id(_ bought: [String: Any]) -> String? { (bought["transaction"] as? [String: Any])?["transactionId"] as? String }
            let seedsID = try #require(id(seeds))
            try await store.admin(.POST, ClientTestStore.api(world) + "/apps/\(ClientTestStore.bundle)/customers/ida/transactions/\(seedsID)/finish")
            let data = try await receipt(store, "ida", world: world)

            // The receipt itself: PKCS#7 signed by this store, Apple's attribute types inside.
            let root = try await store.store.authority.rootCertificate
            let decoded = try await ReceiptSigner.verify(Array(try #require(Data(base64Encoded: data))), root: root, at: Date())
            #expect(decoded.bundleId == ClientTestStore.bundle && decoded.applicationVersion == "1.0")
            // A finished consumable leaves the receipt, as Apple's does.
            #expect(Set(decoded.inApp.map(\.transactionId)) == Set([id(guide), id(plus)].compactMap { $0 }))

            try await store.admin(.PUT, "/admin/v1/apps/\(ClientTestStore.bundle)/shared-secret", ["sharedSecret": "s3cr3tKey42"])
            let json = try await verify(store, ["receipt-data": data, "password": "s3cr3tKey42"])
            #expect(status(json) == 0 && json["environment"] as? String == "Sandbox")
            let body = try #require(json["receipt"] as? [String: Any])
            #expect(body["bundle_id"] as? String == ClientTestStore.bundle && body["receipt_type"] as? String == "ProductionSandbox")
            #expect(body["adam_id"] is NSNumber && body["original_application_version"] is String)
            #expect((body["receipt_creation_date_ms"] as? String).flatMap(Int64.init) != nil)
            #expect((body["receipt_creation_date"] as? String)?.hasSuffix(" Etc/GMT") == true)
            #expect((body["request_date_pst"] as? String)?.hasSuffix(" America/Los_Angeles") == true)
            let inApp = try #require(body["in_app"] as? [[String: Any]])
            #expect(inApp.count == 2 && inApp.allSatisfy { $0["quantity"] as? String == "1" && $0["purchase_date_ms"] is String })
            let subscription = try #require(inApp.first { $0["product_id"] as? String == "k.plus" })
            #expect(subscription["transaction_id"] as? String == id(plus) && subscription["expires_date_ms"] is String)

            let latest = try #require(json["latest_receipt_info"] as? [[String: Any]])
            #expect(Set(latest.compactMap { $0["transaction_id"] as? String }) == Set([id(guide), id(plus)].compactMap { $0 }))
            let latestPlus = try #require(latest.first { $0["product_id"] as? String == "k.plus" })
            #expect(latestPlus["is_trial_period"] as? String == "true" && latestPlus["subscription_group_identifier"] as? String == "KG")
            #expect(latestPlus["in_app_ownership_type"] as? String == "PURCHASED")
            let pending = try #require(json["pending_renewal_info"] as? [[String: Any]])
            #expect(pending.map { $0["auto_renew_product_id"] as? String } == ["k.plus"])
            #expect(pending.first?["auto_renew_status"] as? String == "1" && pending.first?["original_transaction_id"] as? String == id(plus))
            #expect(json["latest_receipt"] is String)

            // After a renewal, exclude-old-transactions keeps only the subscription's latest transaction.
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P10D"])
            let all = try await verify(store, ["receipt-data": data, "password": "s3cr3tKey42"])
            let renewals = (all["latest_receipt_info"] as? [[String: Any]])?.filter { $0["product_id"] as? String == "k.plus" } ?? []
            #expect(renewals.count == 2)
            let recent = try await verify(store, ["receipt-data": data, "password": "s3cr3tKey42", "exclude-old-transactions": true])
            let kept = (recent["latest_receipt_info"] as? [[String: Any]])?.filter { $0["product_id"] as? String == "k.plus" } ?? []
            #expect(kept.count == 1 && kept.first?["transaction_id"] as? String != id(plus))
            #expect(kept.first?["original_transaction_id"] as? String == id(plus))
        }
    }

    @Test func everyWrongRequestHasApplesStatus() async throws {
        try await ClientTestStore.with { store in
            try await store.purchaseElsewhere("k.plus", customer: "jon")
            let data = try await receipt(store, "jon")
            try await store.admin(.PUT, "/admin/v1/apps/\(ClientTestStore.bundle)/shared-secret", ["sharedSecret": "rightSecret1"])

            // 21000: not a POST.
            let get = try await store.request(.GET, "/verifyReceipt")
            #expect(get.status == 200 && status(get.json) == 21000)
            // 21002: no receipt, not base64, not PKCS#7, not JSON at all.
            #expect(status(try await verify(store, ["password": "rightSecret1"])) == 21002)
            #expect(status(try await verify(store, ["receipt-data": "%%%not base64%%%"])) == 21002)
            #expect(status(try await verify(store, ["receipt-data": Data("hello receipt".utf8).base64EncodedString()])) == 21002)
            let garbage = try await store.request(.POST, "/sandbox/verifyReceipt", body: Data("{not json".utf8))
            #expect(status(garbage.json) == 21002)
            // 21003: a byte of the signed content changed (the bundle ID inside the payload).
            var bytes = Array(try #require(Data(base64Encoded: data)))
            let needle = Array(ClientTestStore.bundle.utf8)
            let at = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
            bytes[at] ^= 0x20
            #expect(status(try await verify(store, ["receipt-data": Data(bytes).base64EncodedString(), "password": "rightSecret1"])) == 21003)
            // 21003: a receipt signed by another store.
            let foreign = try await ClientTestStore.with { other in
                try await other.purchaseElsewhere("k.plus", customer: "jon")
                return try await receipt(other, "jon")
            }
            #expect(status(try await verify(store, ["receipt-data": foreign, "password": "rightSecret1"])) == 21003)
            // 21004: the wrong shared secret, or none for a receipt with a subscription.
            #expect(status(try await verify(store, ["receipt-data": data, "password": "wrongSecret1"])) == 21004)
            #expect(status(try await verify(store, ["receipt-data": data])) == 21004)
            // 21007: a sandbox receipt sent to production.
            #expect(status(try await verify(store, ["receipt-data": data, "password": "rightSecret1"], sandbox: false)) == 21007)
            // 21008: a production receipt sent to the sandbox.
            try await store.purchaseElsewhere("k.guide", customer: "kim", bundle: ClientTestStore.production)
            let live = try await receipt(store, "kim", bundle: ClientTestStore.production)
            #expect(status(try await verify(store, ["receipt-data": live], sandbox: true)) == 21008)
            let production = try await verify(store, ["receipt-data": live], sandbox: false)
            #expect(status(production) == 0 && production["environment"] as? String == "Production")
            #expect((production["receipt"] as? [String: Any])?["receipt_type"] as? String == "Production")
            // 21010: the account's purchases are gone.
            try await store.store.world(AppStore.defaultWorld).clearTransactions(bundleId: ClientTestStore.bundle, customer: "jon")
            #expect(status(try await verify(store, ["receipt-data": data, "password": "rightSecret1"])) == 21010)
            // A shared secret is letters and digits.
            let bad = try await store.request(.PUT, "/admin/v1/apps/\(ClientTestStore.bundle)/shared-secret",
                                              body: Data(#"{"sharedSecret":"no"}"#.utf8))
            #expect(bad.status == 400)
        }
    }
}
