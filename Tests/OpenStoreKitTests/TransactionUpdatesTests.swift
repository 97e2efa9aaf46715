import Foundation
@testable import OpenStoreKit
import StoreTestSupport
import Testing

/// `Transaction.updates`: pushed over Server-Sent Events, resumable, first the unfinished ones.
@Suite struct TransactionUpdatesTests {
    /// Collects what `Transaction.updates` yields, from a task of its own.
    final class Listener: Sendable {
        let received = Locked<[VerificationResult<Transaction>]>([])
        let task: Task<Void, Never>

        init(_ connection: StoreConnection) {
            let received = self.received
            task = Task {
                await OpenStoreKit.withConnection(connection) {
                    for await update in Transaction.updates { received.value.append(update) }
                }
            }
        }

        /// Waits until `count` updates arrived (bounded by the test's time limit), then returns them.
        func first(_ count: Int) async throws -> [Transaction] {
            while received.value.count < count { try await Task.sleep(for: .milliseconds(20)) }
            return received.value.map(\.unsafePayloadValue)
        }

        func stop() { task.cancel() }
    }

    @Test(.timeLimit(.minutes(1))) func unfinishedFirstThenPurchasesMadeElsewhere() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let unfinished = try await store.purchaseElsewhere("k.seeds", customer: "ned", world: world)
            let finished = try await store.purchaseElsewhere("k.guide", customer: "ned", world: world)
            let finishedID = try #require((finished["transaction"] as? [String: Any])?["transactionId"] as? String)
            try await store.admin(.POST, ClientTestStore.api(world) + "/apps/\(ClientTestStore.bundle)/customers/ned/transactions/\(finishedID)/finish")

            let listener = Listener(store.connection("ned", world: world))
            defer { listener.stop() }
            let first = try await listener.first(1)
            #expect(first.map { String($0.id) } == [(unfinished["transaction"] as? [String: Any])?["transactionId"] as? String])
            try await store.waitForFeeds(1)
            let later = try await store.purchaseElsewhere("k.plus", customer: "ned", world: world)
            let both = try await listener.first(2)
            #expect(both.map(\.productID) == ["k.seeds", "k.plus"])
            #expect(String(both[1].id) == (later["transaction"] as? [String: Any])?["transactionId"] as? String)
            #expect(listener.received.value.allSatisfy { if case .verified = $0 { true } else { false } })
        }
    }

    @Test(.timeLimit(.minutes(1))) func askToBuyApprovalArrives() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await store.admin(.PATCH, "/admin/v1/worlds/\(world)/settings", ["askToBuy": true])
            let connection = store.connection("oli", world: world)
            let listener = Listener(connection)
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            try await OpenStoreKit.withConnection(connection) {
                let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                #expect(isPending(try await guide.purchase()))
            }
            let pending = try await store.admin(.GET, "/admin/v1/worlds/\(world)/pending-purchases")
            let id = try #require(((pending["pendingPurchases"] as? [[String: Any]])?.first)?["id"] as? String)
            #expect(listener.received.value.isEmpty)
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/pending-purchases/\(id)/approve")
            let approved = try await listener.first(1)
            #expect(approved.map(\.productID) == ["k.guide"] && approved[0].reason == .purchase)
        }
    }

    @Test(.timeLimit(.minutes(1))) func renewalsAfterTimeAdvanceAndRefundsArrive() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let connection = store.connection("pia", world: world)
            let subscribed = try await OpenStoreKit.withConnection(connection) { () -> Transaction in
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let transaction = try #require(transaction(of: try await plus.purchase()))
                await transaction.finish()
                return transaction
            }
            let listener = Listener(connection)
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P10D"])
            let renewal = try #require(try await listener.first(1).first)
            #expect(renewal.reason == .renewal && renewal.productID == "k.plus")
            #expect(renewal.originalID == subscribed.originalID && renewal.id != subscribed.id)
            #expect(renewal.purchaseDate == subscribed.expirationDate)

            try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(renewal.id)/refund", ["reason": 1])
            let refunded = try await listener.first(2)[1]
            #expect(refunded.id == renewal.id && refunded.revocationDate != nil && refunded.revocationReason == .developerIssue)
            #expect(listener.received.value.count == 2)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aStorePagePurchaseArrives() async throws {
        try await ClientTestStore.with { store in
            let connection = store.connection("quinn", bundle: ClientTestStore.foodTruck)
            let listener = Listener(connection)
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            let answer = try await store.request(
                .POST, "/store/food-truck/actions?customer=quinn&world=default",
                body: Data("action=purchase:com.example.foodtruck.annualhistory".utf8), contentType: "application/x-www-form-urlencoded")
            #expect(answer.status == 303)
            #expect(answer.headers.first(name: "X-OpenStore-Result") == "purchased")
            let arrived = try await listener.first(1)
            #expect(arrived.map(\.productID) == ["com.example.foodtruck.annualhistory"])
        }
    }

    @Test(.timeLimit(.minutes(1))) func offerCodeRedemptionAndFamilyGrantsArrive() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let codes = try await store.admin(.POST, "/admin/v1/worlds/\(world)/apps/\(ClientTestStore.bundle)/offer-codes",
                                              ["offer": "FREEMONTH", "codes": ["BIRDS2026"]])
            #expect((codes["codes"] as? [[String: Any]])?.count == 1)
            for member in ["rae", "sol"] {
                try await store.admin(.PUT, "/admin/v1/worlds/\(world)/customers/\(member)/family", ["group": "smiths"])
            }
            let rae = Listener(store.connection("rae", world: world))
            let sol = Listener(store.connection("sol", world: world))
            defer { rae.stop(); sol.stop() }
            try await store.waitForFeeds(2)

            // Redeemed on another device of rae's: arrives on her updates.
            try await store.admin(.POST, ClientTestStore.api(world) + "/apps/\(ClientTestStore.bundle)/customers/rae/redeem-code",
                                  ["code": "BIRDS2026"])
            let redeemed = try #require(try await rae.first(1).first)
            #expect(redeemed.productID == "k.plus" && redeemed.offer?.type == .code)

            // Both are family-shareable: sol, in rae's family, gets a family-shared grant of each.
            try await store.purchaseElsewhere("k.guide", customer: "rae", world: world)
            let granted = try await sol.first(2)
            #expect(granted.map(\.productID) == ["k.plus", "k.guide"])
            #expect(granted.allSatisfy { $0.ownershipType == .familyShared })
            #expect(try await rae.first(2).map(\.productID) == ["k.plus", "k.guide"])
        }
    }

    @Test(.timeLimit(.minutes(1))) func aDroppedConnectionResumesWithoutLossOrDuplicates() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let listener = Listener(store.connection("tia", world: world))
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            let before = try await store.purchaseElsewhere("k.seeds", customer: "tia", world: world)
            _ = try await listener.first(1)

            // The store stops serving HTTP: the stream drops. Purchases happen meanwhile (the store
            // itself runs on, as another instance would take them).
            await store.dropHTTP()
            while store.openUpdateFeeds > 0 { try await Task.sleep(for: .milliseconds(20)) }
            var missed: [String] = []
            for _ in 0..<3 {
                let outcome = try await store.store.world(world).purchase(.init(bundleId: ClientTestStore.bundle, productId: "k.seeds", customer: "tia"))
                missed.append(try #require(outcome.transaction?.payload.transactionId))
            }
            try await store.resumeHTTP()
            let after = try await listener.first(4)
            try await store.waitForFeeds(1)
            let live = try await store.purchaseElsewhere("k.seeds", customer: "tia", world: world)
            let all = try await listener.first(5).map { String($0.id) }
            let expected = [(before["transaction"] as? [String: Any])?["transactionId"] as? String] + missed.map(Optional.some)
                + [(live["transaction"] as? [String: Any])?["transactionId"] as? String]
            #expect(all.map(Optional.some) == expected)
            #expect(after.count == 4)
            #expect(Set(all).count == all.count)
        }
    }

    @Test func aMalformedEventIsSkippedAndTheNextOneArrives() async throws {
        try await ClientTestStore.with { store in
            let connection = store.connection("uma")
            let signed = try await OpenStoreKit.withConnection(connection) { () -> String in
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                return try #require(transaction(of: try await seeds.purchase())).jwsRepresentation
            }
            let verifier = try await connection.verifier()
            // Split at awkward places, with a comment, a broken event, an unknown event, a good one.
            let wire = ": keep-alive\n\nid: 7\nevent: transaction\ndata: {\"signedTransaction\": 42\n\n"
                + "event: transaction\ndata: not json at all\n\nevent: somethingNew\ndata: {}\n\n"
                + "id: 9\r\nevent: transaction\r\ndata: {\"position\":9,\"signedTransaction\":\"\(signed)\"}\r\n\r\n"
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            let bytes = Array(wire.utf8)
            for start in stride(from: 0, to: bytes.count, by: 13) {
                events += parser.feed(bytes[start..<min(start + 13, bytes.count)])
            }
            #expect(events.map(\.type) == ["transaction", "transaction", "somethingNew", "transaction"])
            #expect(events.map(\.id) == ["7", nil, nil, "9"])
            let results = events.compactMap { TransactionUpdates.transaction(in: $0, verifier: verifier, connection: connection)?.0 }
            #expect(results.count == 1)
            #expect(results.first?.unsafePayloadValue.productID == "k.seeds")
        }
    }
}
