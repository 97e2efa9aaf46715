import Foundation
import StoreKit
import StoreKitTest
import Testing

/// Bad input gets `SKTestError` with a message naming what was wrong, never a crash or a hang.
@Suite(.timeLimit(.minutes(2))) struct BadInputTests {
    @Test func aMissingConfigurationNamesTheFileAndWhereItLooked() throws {
        let error = try #require(throws: SKTestError.self) { try SKTestSession(configurationFileNamed: "NoSuchStore") }
        #expect(error.code == .fileNotFound)
        #expect(error.message.contains("NoSuchStore.storekit") && error.message.contains("working folder"))
        let missing = Configurations.folder.appendingPathComponent("Gone.storekit")
        let byURL = try #require(throws: SKTestError.self) { try SKTestSession(contentsOf: missing) }
        #expect(byURL.code == .fileNotFound && byURL.message.contains(missing.path))
    }

    @Test func aBrokenConfigurationNamesTheFileAndTheJSONPath() throws {
        let error = try #require(throws: SKTestError.self) { try SKTestSession(contentsOf: Configurations.broken) }
        #expect(error.message.contains("Broken.storekit"))
        #expect(error.message.contains("products[0].displayPrice"), "\(error.message)")
    }

    @Test func aURLThatIsNotAFileIsRefused() throws {
        let error = try #require(throws: SKTestError.self) { try SKTestSession(contentsOf: URL(string: "https://example.com/Store.storekit")!) }
        #expect(error.code == .invalidURL)
    }

    @Test func unknownProductsAndTransactionsAreStoreKitTestErrors() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let unknownProduct = await #expect(throws: SKTestError.self) { try await session.buyProduct(identifier: "garden.nothing") }
        #expect(unknownProduct?.code == .invalidProductIdentifier && unknownProduct?.message.contains("garden.nothing") == true)
        #expect(throws: SKTestError.self) { try session.expireSubscription(productIdentifier: "garden.nothing") }
        let notASubscription = #expect(throws: SKTestError.self) { try session.forceRenewalOfSubscription(productIdentifier: "garden.guide") }
        #expect(notASubscription?.code == .invalidProductType)
        let noSubscription = #expect(throws: SKTestError.self) { try session.expireSubscription(productIdentifier: "garden.monthly") }
        #expect(noSubscription?.code == .noSubscriptionFound)
        for action in [session.refundTransaction, session.enableAutoRenewForTransaction, session.disableAutoRenewForTransaction,
                       session.requestPriceIncreaseConsentForTransaction, session.approveAskToBuyTransaction,
                       session.resolveIssueForTransaction] {
            let error = #expect(throws: SKTestError.self) { try action(987_654_321) }
            #expect(error?.code == .noTransactionFound || error?.code == .invalidAction, "\(String(describing: error))")
        }
    }
}
