import Foundation
import StoreKit
@testable import StoreKitTest
import Testing

/// `SKTestSession` as a StoreKitTest test uses it: every effect checked through StoreKit's API.
@Suite(.timeLimit(.minutes(2))) struct SessionTests {
    @Test func configurationFileNamedFindsTheTestBundlesResource() async throws {
        let session = try SKTestSession(configurationFileNamed: "Garden")
        session.disableDialogs = true
        session.clearTransactions()
        let products = try await Product.products(for: ["garden.seeds", "garden.guide", "garden.monthly", "garden.nope"])
        #expect(Set(products.map(\.id)) == ["garden.seeds", "garden.guide", "garden.monthly"])
        let monthly = try #require(products.first { $0.id == "garden.monthly" })
        #expect(monthly.type == .autoRenewable && monthly.displayName == "Garden Club Monthly")
        #expect(monthly.price == Decimal(string: "2.99"))
    }

    @Test func anInAppPurchaseIsAnEntitlementAndInAllTransactions() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        let bought = try #require(transaction(of: try await guide.purchase()))
        #expect(bought.productID == "garden.guide" && bought.appBundleID == session.bundleID)
        #expect(await ids(Transaction.currentEntitlements) == [bought.id])
        #expect(session.allTransactions().map(\.identifier) == [Int(bought.id)])
        #expect(session.allTransactions().first?.productIdentifier == "garden.guide")
    }

    @Test func buyProductReachesTransactionUpdatesAndEntitlements() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let updates = UpdatesRecorder()
        let token = UUID()
        let bought = try await session.buyProduct(identifier: "garden.monthly", options: [.appAccountToken(token)])
        #expect(bought.productID == "garden.monthly" && bought.appAccountToken == token)
        #expect(await ids(Transaction.currentEntitlements) == [bought.id])
        #expect(await updates.next(1).map(\.id) == [bought.id])
    }

    @Test func forceRenewalStartsTheNextPeriodAtOnce() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let first = try await session.buyProduct(identifier: "garden.monthly")
        try session.forceRenewalOfSubscription(productIdentifier: "garden.monthly")
        let current = try #require(try await Transaction.currentEntitlement(for: "garden.monthly")?.payloadValue)
        #expect(current.id != first.id && current.originalID == first.id && current.reason == .renewal)
        #expect(try #require(current.expirationDate) > (first.expirationDate ?? .distantPast))
    }

    @Test func expireSubscriptionEndsTheEntitlement() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        try await session.buyProduct(identifier: "garden.monthly")
        try session.expireSubscription(productIdentifier: "garden.monthly")
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        let monthly = try #require(try await Product.products(for: ["garden.monthly"]).first)
        let statuses = try await monthly.subscription?.status ?? []
        #expect(statuses.map(\.state) == [.expired])
    }

    @Test func refundRevokesTheTransaction() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let guide = try await session.buyProduct(identifier: "garden.guide")
        try session.refundTransaction(identifier: Int(guide.id))
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        let latest = try #require(try await Transaction.latest(for: "garden.guide")?.payloadValue)
        #expect(latest.revocationDate != nil)
        #expect(session.allTransactions().first?.cancelDate != nil)
    }

    @Test func clearTransactionsLeavesNothingUnfinished() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        try await session.buyProduct(identifier: "garden.seeds")
        try await session.buyProduct(identifier: "garden.monthly")
        #expect(await ids(Transaction.unfinished).count == 2)
        session.clearTransactions()
        #expect(await ids(Transaction.unfinished).isEmpty)
        #expect(await ids(Transaction.all).isEmpty)
        #expect(session.allTransactions().isEmpty)
    }

    @Test func autoRenewCanBeTurnedOffAndOn() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        func willAutoRenew() async throws -> Bool? {
            let monthly = try #require(try await Product.products(for: ["garden.monthly"]).first)
            let status = try #require(try await monthly.subscription?.status.first)
            return try status.renewalInfo.payloadValue.willAutoRenew
        }
        #expect(try await willAutoRenew() == true)
        try session.disableAutoRenewForTransaction(identifier: Int(bought.id))
        #expect(try await willAutoRenew() == false)
        #expect(session.allTransactions().first?.autoRenewingEnabled == false)
        try session.enableAutoRenewForTransaction(identifier: Int(bought.id))
        #expect(try await willAutoRenew() == true)
    }

    @Test func askToBuyWaitsForTheParent() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        session.askToBuyEnabled = true
        #expect(session.askToBuyEnabled)
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        let updates = UpdatesRecorder()
        let result = try await guide.purchase()
        guard case .pending = result else {
            Issue.record("expected .pending, got \(result)")
            return
        }
        let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        #expect(waiting.state == .deferred)
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        try session.approveAskToBuyTransaction(identifier: waiting.identifier)
        let approved = await updates.next(1)
        #expect(approved.map(\.productID) == ["garden.guide"])
        #expect(await ids(Transaction.currentEntitlements) == approved.map(\.id))
    }

    @Test func declinedAskToBuyDeliversNothing() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        session.askToBuyEnabled = true
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        _ = try await guide.purchase()
        let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        try session.declineAskToBuyTransaction(identifier: waiting.identifier)
        #expect(session.allTransactions().isEmpty)
        #expect(await ids(Transaction.all).isEmpty)
    }

    @Test func anInterruptedPurchaseCompletesWhenTheIssueIsResolved() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        session.interruptedPurchasesEnabled = true
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        let updates = UpdatesRecorder()
        _ = try await guide.purchase()
        let interrupted = try #require(session.allTransactions().first { $0.hasPurchaseIssue })
        #expect(interrupted.state == .failed)
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        try session.resolveIssueForTransaction(identifier: interrupted.identifier)
        #expect(await updates.next(1).map(\.productID) == ["garden.guide"])
        #expect(await ids(Transaction.currentEntitlements).count == 1)
        #expect(session.allTransactions().map(\.state) == [.purchased])
    }

    @Test func billingRetryAndGracePeriodFollowTheClock() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        session.shouldEnterBillingRetryOnRenewal = true
        session.billingGracePeriodIsEnabled = true
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        let expiry = try #require(bought.expirationDate)
        try session.advanceTime(by: expiry.timeIntervalSince(session.currentDate) + 60)
        let monthly = try #require(try await Product.products(for: ["garden.monthly"]).first)
        #expect(try await monthly.subscription?.status.first?.state == .inGracePeriod)
        #expect(await ids(Transaction.currentEntitlements) == [bought.id])  // grace keeps access
        try session.advanceTime(by: 17 * 86_400)  // past the 16-day grace period
        #expect(try await monthly.subscription?.status.first?.state == .inBillingRetryPeriod)
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        try session.resolveIssueForTransaction(identifier: Int(bought.id))
        #expect(try await monthly.subscription?.status.first?.state == .subscribed)
    }

    @Test func advanceTimeAppliesEveryRenewalInOrder() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        try session.advanceTime(by: .seconds(95 * 86_400))  // three monthly renewals
        var renewals: [Transaction] = []
        for await result in Transaction.all(for: "garden.monthly") {
            if case .verified(let transaction) = result { renewals.append(transaction) }
        }
        #expect(renewals.count == 4 && renewals.allSatisfy { $0.originalID == bought.id })
        let purchaseDates = renewals.map(\.purchaseDate)
        #expect(purchaseDates == purchaseDates.sorted())
        #expect(throws: SKTestError.self) { try session.advanceTime(by: -1) }
    }

    @Test func timeRateIsSetAndReadBack() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        #expect(session.timeRate == .realTime)
        session.timeRate = .oneRenewalEveryTwoSeconds
        #expect(session.timeRate == .oneRenewalEveryTwoSeconds)
        #expect(SKTestSession.TimeRate.monthlyRenewalEveryThirtySeconds.rawValue == 15)
        #expect(SKTestSession.TimeRate.oneRenewalEveryTwoSeconds.rawValue == 1005)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        let period = try #require(bought.expirationDate).timeIntervalSince(bought.purchaseDate)
        #expect(period < 60)  // a month lasts two seconds of real time: its world length is far below a real month
        session.resetToDefaultState()
        #expect(session.timeRate == .realTime)
    }

    @Test func storefrontAndLocaleReachStoreKit() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        #expect(session.storefront == "USA")
        #expect(await Storefront.current?.countryCode == "USA")
        session.storefront = "FRA"
        session.locale = Locale(identifier: "fr_FR")
        #expect(await Storefront.current?.countryCode == "FRA")
        let seeds = try #require(try await Product.products(for: ["garden.seeds"]).first)
        #expect(seeds.displayName == "Graines")
        session.resetToDefaultState()
        #expect(session.storefront == "USA")
        #expect(await Storefront.current?.countryCode == "USA")
    }

    @Test func priceIncreaseConsentIsPendingUntilAnswered() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        try session.requestPriceIncreaseConsentForTransaction(identifier: Int(bought.id))
        #expect(session.allTransactions().first?.isPendingPriceIncreaseConsent == true)
        let monthly = try #require(try await Product.products(for: ["garden.monthly"]).first)
        let pending = try #require(try await monthly.subscription?.status.first?.renewalInfo.payloadValue)
        #expect(pending.priceIncreaseStatus == .pending)
        try session.consentToPriceIncreaseForTransaction(identifier: Int(bought.id))
        let agreed = try #require(try await monthly.subscription?.status.first?.renewalInfo.payloadValue)
        #expect(agreed.priceIncreaseStatus == .agreed)
    }

    @Test func testingOffersApplyWithoutSignatures() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let code = try await session.buyProduct(identifier: "garden.monthly", options: [.codeOffer(referenceName: "SPRING")])
        #expect(code.offer?.type == .code)
        // Promotional offers are for current or past subscribers of the group (Apple's rule).
        try session.expireSubscription(productIdentifier: "garden.monthly")
        let promo = try await session.buyProduct(identifier: "garden.monthly", options: [.promotionalOffer(id: "comeback")])
        #expect(promo.offer?.type == .promotional && promo.offer?.id == "comeback")
    }

    @Test func aScopedSessionReachesStoreKitFromADetachedTask() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.guide")
        let seen = await Task.detached {
            await session.withStoreKit { await ids(Transaction.currentEntitlements) }
        }.value
        #expect(seen == [bought.id])
    }
}

/// The deprecated and rarely used members still do what Apple's do.
@Suite(.timeLimit(.minutes(2))) struct LegacySessionTests {
    @Test @available(*, deprecated) func failTransactionsMakesPurchasesFail() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        session.failTransactionsEnabled = true
        #expect(session.failTransactionsEnabled)
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        await #expect(throws: (any Error).self) { try await guide.purchase() }
        session.failTransactionsEnabled = false
        #expect(transaction(of: try await guide.purchase()) != nil)
    }

    @Test @available(*, deprecated) func failureErrorIsWhatFailedTransactionsFailWith() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        #expect(session.failureError == .unknown)
        session.failTransactionsEnabled = true
        session.failureError = .invalidSignature
        #expect(session.failureError == .invalidSignature)
        let guide = try #require(try await Product.products(for: ["garden.guide"]).first)
        await #expect(throws: Product.PurchaseError.invalidOfferSignature) { try await guide.purchase() }
        // A code Apple does not accept here leaves the error as it was.
        session.failureError = .paymentCancelled
        #expect(session.failureError == .invalidSignature)
        session.failureError = .invalidOfferPrice
        await #expect(throws: Product.PurchaseError.invalidOfferPrice) { try await guide.purchase() }
        session.resetToDefaultState()
        #expect(session.failureError == .unknown && !session.failTransactionsEnabled)
        #expect(transaction(of: try await guide.purchase()) != nil)
    }

    @Test @available(*, deprecated) func buyProductByProductIdentifierBuysOutsideTheApp() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        try session.buyProduct(productIdentifier: "garden.guide")
        #expect(await ids(Transaction.currentEntitlements).count == 1)
        #expect(throws: SKTestError.self) { try session.buyProduct(productIdentifier: "garden.nothing") }
    }

    @Test func decliningAPriceIncreaseTurnsAutoRenewOff() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let bought = try await session.buyProduct(identifier: "garden.monthly")
        try session.requestPriceIncreaseConsentForTransaction(identifier: Int(bought.id))
        try session.declinePriceIncreaseForTransaction(identifier: Int(bought.id))
        let monthly = try #require(try await Product.products(for: ["garden.monthly"]).first)
        let info = try #require(try await monthly.subscription?.status.first?.renewalInfo.payloadValue)
        #expect(!info.willAutoRenew)
    }

    @Test func deleteTransactionRemovesItAndASubscriptionWithItsRenewals() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let guide = try await session.buyProduct(identifier: "garden.guide")
        let seeds = try await session.buyProduct(identifier: "garden.seeds")
        let monthly = try await session.buyProduct(identifier: "garden.monthly")
        try session.forceRenewalOfSubscription(productIdentifier: "garden.monthly")
        #expect(await ids(Transaction.all).count == 4)
        let unknown = #expect(throws: SKTestError.self) { try session.deleteTransaction(identifier: 42) }
        #expect(unknown?.code == .noTransactionFound)

        // A non-consumable: gone from entitlements and history, and it can be bought again.
        try session.deleteTransaction(identifier: Int(guide.id))
        #expect(!(await ids(Transaction.currentEntitlements)).contains(guide.id))
        #expect(try await Transaction.latest(for: "garden.guide") == nil)

        // A subscription's first purchase takes its renewal and its status with it.
        try session.deleteTransaction(identifier: Int(monthly.id))
        #expect(await ids(Transaction.all) == [seeds.id])
        let product = try #require(try await Product.products(for: ["garden.monthly"]).first)
        #expect(try await product.subscription?.status.isEmpty == true)
        #expect(session.allTransactions().map(\.identifier) == [Int(seeds.id)])
        let again = try await session.buyProduct(identifier: "garden.guide")
        #expect(again.id != guide.id && again.originalID == again.id)
    }

    @Test func purchaseDateRenewsUntilNow() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let start = Date(timeIntervalSinceNow: -75 * 86_400)
        let first = try await session.buyProduct(identifier: "garden.monthly", options: [.purchaseDate(start)])
        #expect(abs(first.purchaseDate.timeIntervalSince(start)) < 1)
        // Every period from then to now is there when buyProduct returns: the purchase and two renewals.
        var periods: [Transaction] = []
        for await result in Transaction.all { if case .verified(let t) = result, t.originalID == first.id { periods.append(t) } }
        #expect(periods.count == 3)
        #expect(periods.dropFirst().allSatisfy { $0.reason == .renewal })
        let current = try #require(periods.max { $0.purchaseDate < $1.purchaseDate })
        #expect(await ids(Transaction.currentEntitlements) == [current.id])
        #expect((current.expirationDate ?? .distantPast) > Date())
        let tomorrow = Date(timeIntervalSinceNow: 86_400)
        let future = await #expect(throws: SKTestError.self) {
            try await session.buyProduct(identifier: "garden.guide", options: [.purchaseDate(tomorrow)])
        }
        #expect(future?.code == .invalidAction)
    }

    @Test func purchaseDateWithCancelImmediatelyHasOnePeriod() async throws {
        let session = try SKTestSession(contentsOf: Configurations.garden)
        let start = Date(timeIntervalSinceNow: -75 * 86_400)
        let first = try await session.buyProduct(identifier: "garden.monthly", options: [.purchaseDate(start, renewalBehavior: .cancelImmediately)])
        #expect(await ids(Transaction.all) == [first.id])
        #expect(await ids(Transaction.currentEntitlements).isEmpty)
        let product = try #require(try await Product.products(for: ["garden.monthly"]).first)
        let status = try #require(try await product.subscription?.status.first)
        #expect(status.state == .expired)
        #expect(try status.renewalInfo.payloadValue.expirationReason == .autoRenewDisabled)
        #expect(session.allTransactions().first?.state == .purchased)
    }
}
