import Foundation
import StoreKit
import StoreKitTest
import Testing

/// The guarantee: an action returns only after its effect is visible to StoreKit calls in the
/// same test, and the updates it causes reach `Transaction.updates` before any later action's.
@Suite(.timeLimit(.minutes(5))) struct OrderingTests {
    @Test func actionsAreVisibleAtOnceAndUpdatesComeInOrder200Times() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let updates = UpdatesRecorder()
        for round in 0..<200 {
            let first = try await session.buyProduct(identifier: "garden.monthly")
            #expect(await ids(Transaction.currentEntitlements) == [first.id], "round \(round): the purchase is not visible yet")

            try session.forceRenewalOfSubscription(productIdentifier: "garden.monthly")
            let renewal = try #require(try await Transaction.currentEntitlement(for: "garden.monthly")?.payloadValue,
                                       "round \(round): no entitlement right after the renewal")
            #expect(renewal.id != first.id && renewal.originalID == first.id, "round \(round): the renewal is not visible yet")

            try session.refundTransaction(identifier: Int(renewal.id))
            #expect(await ids(Transaction.currentEntitlements).isEmpty, "round \(round): the refund is not visible yet")

            // The feed carries the purchase, the renewal (and the period it ends), then the refund,
            // in that order: read up to the refunded renewal.
            var seen: [Transaction] = []
            for await update in updates.stream {
                seen.append(update)
                if update.id == renewal.id && update.revocationDate != nil { break }
            }
            let bought = seen.firstIndex { $0.id == first.id }
            let renewed = seen.firstIndex { $0.id == renewal.id && $0.revocationDate == nil }
            #expect(bought != nil && renewed != nil && bought! < renewed! && renewed! < seen.count - 1,
                    "round \(round): \(seen.map { ($0.id, $0.revocationDate != nil) })")
            session.clearTransactions()
        }
    }
}
