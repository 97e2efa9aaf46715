import Foundation
import StoreModel
import StoreStorage

/// The world's verbs for what a device asks for (the StoreKit client routes, the store pages).
extension StoreWorld {
    /// `AppTransaction.shared`: created the first time a customer's copy of the app asks for it.
    public func appTransaction(bundleId: String, customer: String) async throws -> Signed<AppTransactionPayload> {
        try await reported { try await store.appTransaction(bundleId: bundleId, customer: customer, world: id) }
    }

    /// The customer's device verification identifier (`identifierForVendor` of their device), for
    /// checking `deviceVerification` as an app does.
    public func deviceVerificationID(customer: String) async throws -> String {
        try await reported { try await store.deviceVerificationID(customer: customer, world: id) }
    }

    /// Changes the customer's app transaction (versions, original purchase or preorder date) and
    /// returns it signed; versions are 1–64 characters.
    public func updateAppTransaction(bundleId: String, customer: String, change: AppTransactionChange) async throws -> Signed<AppTransactionPayload> {
        try await reported { try await store.updateAppTransaction(bundleId: bundleId, customer: customer, change: change, world: id) }
    }

    /// Emits `RESCIND_CONSENT` for the customer's copy of the app, and returns the app
    /// transaction the notification carries. A customer without the app is refused.
    public func rescindConsent(bundleId: String, customer: String) async throws -> Signed<AppTransactionPayload> {
        try await reported { try await store.rescindConsent(bundleId: bundleId, customer: customer, world: id) }
    }

    /// The customer's family group and its members, if they are in one.
    public func family(of customer: String) async throws -> FamilyMembership {
        try await reported { try await store.family(of: customer, world: id) }
    }

    /// `Message.messages`: the messages waiting for the customer in the app, oldest first. Handing
    /// them out does not mark them read; `displayMessage` does.
    public func messages(bundleId: String, customer: String) async throws -> [StoreMessage] {
        try await reported { try await store.messages(bundleId: bundleId, customer: customer, world: id) }
    }

    /// `Message.display(in:)`: the message is read and is never handed out again.
    public func displayMessage(_ messageId: String, bundleId: String, customer: String) async throws -> StoreMessage {
        try await reported { try await store.displayMessage(messageId, bundleId: bundleId, customer: customer, world: self.id) }
    }

    /// Queues a `.generic` message (or any reason) for a customer, as App Store Connect's
    /// messaging would; for tests of an app's message handling.
    public func queueMessage(_ reason: StoreMessage.Reason = .generic, bundleId: String, customer: String) async throws -> StoreMessage {
        try await reported { try await store.queueMessage(reason, bundleId: bundleId, customer: customer, world: id) }
    }

    /// A customer redeems an offer code: the code's subscription with its offer, by Apple's rules
    /// (eligibility, expiry, redemption limit). A code redeemed by a current subscriber for the
    /// current plan applies at the next renewal; the answer then carries the current transaction.
    public func redeemOfferCode(_ code: String, bundleId: String, customer: String) async throws -> PurchaseOutcome {
        try await reported { try await store.redeemOfferCode(code, bundleId: bundleId, customer: customer, world: id) }
    }

    /// `requestPriceIncreaseConsentForTransaction`, extended with the price and with notify-only
    /// increases. `newPrice` is a decimal string in the subscriber's currency ("5.99").
    /// Returns the renewal info as it now reads (`renewalPrice` shows the new price,
    /// `priceIncreaseStatus` 0 pending or 1 accepted).
    public func requestPriceIncrease(transactionId: String, newPrice: String, mode: PriceIncreaseMode = .consent) async throws -> Signed<RenewalInfoPayload> {
        try await reported { try await store.requestPriceIncrease(transactionId: transactionId, newPrice: newPrice, mode: mode, world: id) }
    }

    /// `consentToPriceIncreaseForTransaction`.
    public func consentToPriceIncrease(transactionId: String) async throws -> Signed<RenewalInfoPayload> {
        try await reported { try await store.consentToPriceIncrease(transactionId: transactionId, world: id) }
    }

    /// `declinePriceIncreaseForTransaction`: auto-renew turns off; the subscription expires at its
    /// renewal date with `expirationIntent` 3 unless the customer consents first.
    public func declinePriceIncrease(transactionId: String) async throws -> Signed<RenewalInfoPayload> {
        try await reported { try await store.declinePriceIncrease(transactionId: transactionId, world: id) }
    }

    /// The customer's app receipt as it is on their device now, base64 (the contents of
    /// `Bundle.main.appStoreReceiptURL`): their purchases of the app, except consumables already
    /// finished (Apple's rule for the receipt's in-app purchases).
    public func appReceipt(bundleId: String, customer: String) async throws -> String {
        try await reported { try await store.appReceipt(bundleId: bundleId, customer: customer, world: id) }
    }

    /// A customer asks for a refund; `customer`, when given, must own the transaction (device API).
    public func requestRefund(transactionId: String, reason: String, bundleId: String? = nil, customer: String? = nil) async throws -> RefundRequest {
        try await reported { try await store.requestRefund(transactionId: transactionId, reason: reason, bundleId: bundleId, customer: customer, world: id) }
    }

    /// `AppStore.requestReview(in:)`: whether the rating prompt would show now for the customer in
    /// the app at `appVersion` (its `CFBundleShortVersionString`). A prompt that shows counts
    /// towards the limits of `ReviewPromptPolicy`.
    public func requestReview(bundleId: String, customer: String, appVersion: String) async throws -> ReviewPromptDecision {
        try await reported { try await store.requestReview(bundleId: bundleId, customer: customer, appVersion: appVersion, world: id) }
    }

    /// A customer's transaction changes, pushed as they become durable: what StoreKit's
    /// `Transaction.updates` delivers (renewals, refunds and revocations, Ask to Buy approvals,
    /// offer-code redemptions, family-sharing grants, purchases made elsewhere), and live hints
    /// for the status and storefront changes that make no transaction.
    ///
    /// - Parameter position: where a previous feed stopped (its last `position`). Nil on a first
    ///   connection: the feed then starts, like StoreKit, with the unfinished transactions.
    /// Changes come in change order, each once; a position is only ever handed out once every
    /// change below it is durable (`TransactionFeed`), so resuming from it loses nothing even
    /// when writes commit out of order.
    public func transactionUpdates(bundleId: String, customer: String, after position: Int64?) async throws -> AsyncStream<TransactionUpdate> {
        try await reported { try await store.transactionUpdates(bundleId: bundleId, customer: customer, after: position, world: id) }
    }

    /// The customer's transactions for an app, each freshly signed (`signedDate` = now), oldest first.
    public func transactions(bundleId: String, customer: String, scope: TransactionScope) async throws -> [Signed<TransactionPayload>] {
        try await reported { try await store.transactions(bundleId: bundleId, customer: customer, scope: scope, world: id) }
    }

    /// `Transaction.finish()`: the app delivered the content, so the transaction leaves `unfinished`.
    public func finish(bundleId: String, customer: String, transactionId: String) async throws {
        try await reported { try await store.finish(bundleId: bundleId, customer: customer, transactionId: transactionId, world: id) }
    }

    /// Changes a stored transaction (Server API: app account token). The change takes the next
    /// number of the change sequence, so the transaction reappears after a revision token.
    @discardableResult
    func modifyTransaction(id transactionId: Int64, _ change: @Sendable (inout TransactionPayload, inout TransactionRecord) throws -> Void) async throws -> TransactionRecord {
        try await reported { try await store.modifyTransaction(world: self.id, id: transactionId, change) }
    }

    /// The customer with this ID in the world, or nil when there is none.
    public func customer(_ name: String) async throws -> StoreCustomer? {
        try await reported { try await store.customer(name, world: id) }
    }

    /// Creates the account, or changes its storefront and locale.
    public func saveCustomer(_ name: String, storefront: String?, locale: String?) async throws -> StoreCustomer {
        try await reported { try await store.saveCustomer(name, storefront: storefront, locale: locale, world: id) }
    }
}
