import Foundation
import OpenStoreKit
import StoreEngine
import StoreModel

/// The Transaction Manager's actions. Each returns once its effect is in the session's store:
/// a StoreKit call made next sees it, and the transaction updates it causes are queued for
/// `Transaction.updates` before those of any later action.
extension SKTestSession {
    /// Buys a product "outside the app" (as on another device of the account): the new
    /// transaction reaches the app through `Transaction.updates`.
    @discardableResult
    public func buyProduct(identifier: Product.ID, options: Set<Product.PurchaseOption> = []) async throws -> Transaction {
        let purchase = try TestPurchase(options, productId: identifier, catalog: host.catalog)
        let world = world, customer = customer
        let outcome = try await call { store in
            try await store.world(world).purchase(purchase.request(customer: customer), offer: purchase.offer)
        }
        guard let signed = outcome.transaction else {
            throw SKTestError(.invalidAction, "the purchase of \(identifier) is \(outcome.status.rawValue) (pending purchase "
                + "\(outcome.pendingId ?? "?")); it has no transaction until approveAskToBuyTransaction or resolveIssueForTransaction")
        }
        return try await transaction(signed.jws)
    }

    /// Apple's older form of `buyProduct(identifier:options:)`: buys outside the app and returns
    /// nothing, also when the purchase waits for Ask to Buy or an issue.
    @available(*, deprecated, renamed: "buyProduct(identifier:options:)")
    public func buyProduct(productIdentifier: String) throws {
        let purchase = try TestPurchase([], productId: productIdentifier, catalog: host.catalog)
        let world = world, customer = customer
        _ = try blocking { try await $0.world(world).purchase(purchase.request(customer: customer)) }
    }

    /// Every transaction of the session's account, oldest first, with the purchases still
    /// waiting for Ask to Buy or a purchase issue.
    public func allTransactions() -> [SKTestTransaction] {
        let world = world, customer = customer
        return (try? blocking { store -> [SKTestTransaction] in
            let signed = try await store.world(world).transactions(bundleId: HostedStore.bundleID, customer: customer, scope: .all)
            let statuses = try await store.world(world).subscriptionStatuses(bundleId: HostedStore.bundleID, customer: customer)
            let renewal = Dictionary(statuses.map { ($0.originalTransactionId, $0.renewalInfo.payload) }, uniquingKeysWith: { a, _ in a })
            var list = signed.map { item -> SKTestTransaction in
                let payload = item.payload
                let info = renewal[payload.originalTransactionId]
                return SKTestTransaction(
                    identifier: Int(payload.transactionId) ?? 0, originalTransactionIdentifier: Int(payload.originalTransactionId) ?? 0,
                    productIdentifier: payload.productId, purchaseDate: SKTestSession.date(payload.purchaseDate),
                    cancelDate: payload.revocationDate.map(SKTestSession.date), expirationDate: payload.expiresDate.map(SKTestSession.date),
                    autoRenewingEnabled: info?.autoRenewStatus == .on, hasPurchaseIssue: info?.isInBillingRetryPeriod == true,
                    isPendingPriceIncreaseConsent: info?.priceIncreaseStatus == .notResponded, pendingAskToBuyConfirmation: false,
                    state: .purchased)
            }
            for pending in try await store.world(world).pendingPurchases() where pending.request.customer == customer {
                let id = Int(pending.id) ?? 0
                list.append(SKTestTransaction(
                    identifier: id, originalTransactionIdentifier: id, productIdentifier: pending.request.productId,
                    purchaseDate: SKTestSession.date(pending.createdMs), cancelDate: nil, expirationDate: nil, autoRenewingEnabled: false,
                    hasPurchaseIssue: pending.kind == .interrupted, isPendingPriceIncreaseConsent: false,
                    pendingAskToBuyConfirmation: pending.kind == .askToBuy,
                    // As StoreKit 1's queue reports them: Ask to Buy waits deferred; an interrupted
                    // purchase failed until its issue is resolved (a new, purchased transaction).
                    state: pending.kind == .askToBuy ? .deferred : .failed))
            }
            return list.sorted { ($0.purchaseDate, $0.identifier) < ($1.purchaseDate, $1.identifier) }
        }) ?? []
    }

    /// Removes every transaction of the session's account: `Transaction.all`,
    /// `currentEntitlements` and `unfinished` are empty afterwards (unlike Xcode's, which left
    /// unfinished transactions behind).
    public func clearTransactions() {
        let world = world, customer = customer
        _ = try? blocking { try await $0.world(world).clearTransactions(bundleId: HostedStore.bundleID, customer: customer) }
    }

    /// Removes one transaction, as the Transaction Manager's Delete: for a subscription, its
    /// whole chain of renewals, since a renewal cannot outlive the purchase it continues. It is
    /// gone from `Transaction.all`, `currentEntitlements` and the subscription statuses.
    public func deleteTransaction(identifier: Int) throws {
        _ = try transactionPayload(identifier)
        let world = world
        _ = try blocking { try await $0.world(world).deleteTransaction(transactionId: String(identifier)) }
    }

    /// Removes every override made in the session (back to the configuration file's settings);
    /// the transactions stay.
    public func resetToDefaultState() {
        let defaults = SessionState.Values(catalog: host.catalog)
        let world = world, customer = customer, catalog = host.catalog
        _ = try? blocking { store -> Void in
            _ = try await store.world(world).setSwitches(SessionSwitches(
                askToBuy: defaults.askToBuyEnabled, failRenewals: defaults.shouldEnterBillingRetryOnRenewal,
                billingGracePeriod: defaults.billingGracePeriodIsEnabled, interruptedPurchases: defaults.interruptedPurchasesEnabled,
                failTransactions: defaults.failTransactionsEnabled, failureError: "unknown"))
            for api in StoreEngine.AppStore.failableAPIs {
                let setting = catalog.settings.storeKitErrors.first { $0.name == api }
                _ = try? await store.world(world).setSimulatedError(api: api, error: setting.flatMap(CatalogSimulatedErrors.error(of:)))
            }
            _ = try await store.world(world).saveCustomer(customer, storefront: defaults.storefront, locale: defaults.locale.identifier)
            _ = try await store.setTimeRate(world, rate: defaults.timeRate.engineRate)
        }
        state.replace(defaults)
    }

    /// Apple's `refundTransaction(identifier:)`: refunds the purchase at once and access ends; a
    /// refunded current subscription period ends the subscription (revoked).
    public func refundTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).refund(transactionId: String(identifier)) }
    }

    /// Apple's `approveAskToBuyTransaction(identifier:)`: the waiting purchase completes; throws
    /// `noTransactionFound` when no Ask to Buy purchase has that identifier.
    public func approveAskToBuyTransaction(identifier: Int) throws {
        try answerAskToBuy(identifier, approve: true)
    }

    /// Apple's `declineAskToBuyTransaction(identifier:)`: the waiting purchase is dropped; throws
    /// `noTransactionFound` when no Ask to Buy purchase has that identifier.
    public func declineAskToBuyTransaction(identifier: Int) throws {
        try answerAskToBuy(identifier, approve: false)
    }

    private func answerAskToBuy(_ identifier: Int, approve: Bool) throws {
        let world = world
        _ = try blocking { store -> Bool in
            guard try await store.world(world).pendingPurchases().contains(where: { $0.id == String(identifier) && $0.kind == .askToBuy }) else {
                throw SKTestError(.noTransactionFound, "no purchase \(identifier) waits for an Ask to Buy answer")
            }
            return try await store.world(world).answerAskToBuy(String(identifier), approve: approve) != nil
        }
    }

    /// Clears an interrupted purchase (it completes) or a billing issue (the subscription recovers).
    public func resolveIssueForTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).resolveIssue(String(identifier)) }
    }

    /// Apple's `enableAutoRenewForTransaction(identifier:)`: the subscription renews again at its
    /// next renewal date.
    public func enableAutoRenewForTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).setAutoRenew(transactionId: String(identifier), enabled: true) }
    }

    /// Apple's `disableAutoRenewForTransaction(identifier:)`: the subscription expires at the end of
    /// its current period instead of renewing.
    public func disableAutoRenewForTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).setAutoRenew(transactionId: String(identifier), enabled: false) }
    }

    /// Asks the customer to consent to a higher renewal price (the product's price plus one
    /// unit of its currency) and queues the price-increase `Message`.
    public func requestPriceIncreaseConsentForTransaction(identifier: Int) throws {
        let payload = try transactionPayload(identifier)
        guard let product = host.catalog.products.first(where: { $0.id == payload.productId }), product.kind == .autoRenewable else {
            throw SKTestError(.invalidProductType, "transaction \(identifier) is not an auto-renewable subscription")
        }
        let world = world, price = "\(product.price + 1)"
        _ = try blocking { try await $0.world(world).requestPriceIncrease(transactionId: String(identifier), newPrice: price, mode: .consent) }
    }

    /// Apple's `consentToPriceIncreaseForTransaction(identifier:)`: the customer accepts the pending
    /// price increase, so the subscription renews at the new price.
    public func consentToPriceIncreaseForTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).consentToPriceIncrease(transactionId: String(identifier)) }
    }

    /// Apple's `declinePriceIncreaseForTransaction(identifier:)`: the customer turns the pending price
    /// increase down, which turns auto-renew off so the subscription expires at the end of its period.
    public func declinePriceIncreaseForTransaction(identifier: Int) throws {
        let world = world
        _ = try blocking { try await $0.world(world).declinePriceIncrease(transactionId: String(identifier)) }
    }

    // MARK: Helpers

    /// The stored transaction with this ID in the session's account, or `noTransactionFound`.
    func transactionPayload(_ identifier: Int) throws -> TransactionPayload {
        let world = world, customer = customer
        return try blocking { store in
            let all = try await store.world(world).transactions(bundleId: HostedStore.bundleID, customer: customer, scope: .all)
            guard let found = all.first(where: { $0.payload.transactionId == String(identifier) }) else {
                throw SKTestError(.noTransactionFound, "no transaction \(identifier) in this session")
            }
            return found.payload
        }
    }

    /// A signed transaction as StoreKit's `Transaction`, verified as the app would.
    func transaction(_ jws: String) async throws -> Transaction {
        let verifier = try await connection.verifier()
        do {
            return try verifier.transaction(jws).payloadValue
        } catch {
            throw SKTestError(.serviceUnavailable, "the store's signed transaction did not verify: \(error)")
        }
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}
