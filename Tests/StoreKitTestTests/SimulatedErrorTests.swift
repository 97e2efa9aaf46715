import Foundation
import StoreKit
import StoreKitTest
import Testing

/// `setSimulatedError(_:forAPI:)`: StoreKit's own calls fail as set, in this session only.
@Suite(.timeLimit(.minutes(2))) struct SimulatedErrorTests {
    @Test func loadProductsAndPurchaseFailAsSetThenWorkAgain() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        #expect(await session.simulatedError(forAPI: .loadProducts) == nil)
        try await session.setSimulatedError(.generic(.notAvailableInStorefront), forAPI: .loadProducts)
        #expect(await session.simulatedError(forAPI: .loadProducts) == .generic(.notAvailableInStorefront))
        await #expect(throws: StoreKitError.self) { try await Product.products(for: ["garden.guide"]) }
        try await session.setSimulatedError(nil, forAPI: .loadProducts)
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)

        try await session.setSimulatedError(SKTestFailures.Purchase.purchase(.productUnavailable), forAPI: StoreKitPurchaseAPI.purchase)
        #expect(await session.simulatedError(forAPI: .purchase) == .purchase(.productUnavailable))
        await #expect(throws: Product.PurchaseError.productUnavailable) { try await guide.purchase() }
        try await session.setSimulatedError(nil, forAPI: .purchase)
        #expect(transaction(of: try await guide.purchase()) != nil)
    }
}
