import Foundation
import StoreKit
import StoreKitTest
import Testing

/// Sixteen tests at once, each with its own session, buying and renewing the same products: each
/// sees only its own customer, transactions, clock and switches.
@Suite(.timeLimit(.minutes(3))) struct IsolationTests {
    @Test(arguments: 0..<16) func parallelSessionsSeeOnlyTheirOwn(index: Int) async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        // Switches differ from test to test; none may leak into another.
        session.askToBuyEnabled = index % 4 == 3
        session.storefront = index.isMultiple(of: 2) ? "USA" : "GBR"
        if index % 4 == 3 {
            let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
            guard case .pending = try await guide.purchase() else {
                Issue.record("test \(index): Ask to Buy is on in this session only, so its purchase waits")
                return
            }
            session.askToBuyEnabled = false
        }
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        for _ in 0..<(index % 3) { try session.forceRenewalOfSubscription(productIdentifier: "garden.monthly") }
        try session.advanceTime(by: Double(index) * 3_600)

        let all = await ids(Transaction.all)
        #expect(all.count == 1 + index % 3, "test \(index) sees \(all.count) transactions")
        var chain: Set<UInt64> = []
        for await result in Transaction.all {
            if case .verified(let transaction) = result { chain.insert(transaction.originalID) }
        }
        #expect(chain == [bought.id], "test \(index) sees another session's purchases")
        #expect(await Storefront.current?.countryCode == (index.isMultiple(of: 2) ? "USA" : "GBR"))
        #expect(session.allTransactions().count == 1 + index % 3 + (index % 4 == 3 ? 1 : 0))
    }
}
