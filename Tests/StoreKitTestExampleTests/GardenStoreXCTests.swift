import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// The same app code tested in XCTest, written exactly as for Xcode: a session made in `setUp`.
/// XCTest runs these one at a time; the session reaches StoreKit as the process's latest one.
final class GardenStoreXCTests: XCTestCase {
    private var session: SKTestSession!

    override func setUpWithError() throws {
        session = try SKTestSession(configurationFileNamed: "Garden")
        session.disableDialogs = true
        session.clearTransactions()
    }

    @MainActor
    func testBuyingTheGuideUnlocksIt() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let guide = try XCTUnwrap(store.products.first { $0.id == "garden.guide" })
        try await store.purchase(guide)
        XCTAssertTrue(store.ownsGuide)
    }

    @MainActor
    func testAskToBuyLeavesThePurchasePendingUntilApproved() async throws {
        session.askToBuyEnabled = true
        let store = GardenStore()
        try await store.loadProducts()
        let guide = try XCTUnwrap(store.products.first { $0.id == "garden.guide" })
        let completed = try await store.purchase(guide)
        XCTAssertNil(completed)
        XCTAssertFalse(store.ownsGuide)
        let pending = try XCTUnwrap(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        try session.approveAskToBuyTransaction(identifier: pending.identifier)
        await store.refreshEntitlements()
        XCTAssertTrue(store.ownsGuide)
    }

    @MainActor
    func testForcedRenewalKeepsTheMembership() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let first = try await session.buyProduct(identifier: "garden.monthly")
        try session.forceRenewalOfSubscription(productIdentifier: "garden.monthly")
        await store.refreshEntitlements()
        XCTAssertEqual(store.membership?.id, "garden.monthly")
        let current = try await Transaction.currentEntitlement(for: "garden.monthly")?.payloadValue
        XCTAssertEqual(current?.originalID, first.id)
        XCTAssertNotEqual(current?.id, first.id)
    }
}
