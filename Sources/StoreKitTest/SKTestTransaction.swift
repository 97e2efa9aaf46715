import Foundation
import StoreKit

/// One transaction of the session's store as `SKTestSession.allTransactions()` lists it: what the
/// Transaction Manager shows, including purchases still waiting for Ask to Buy or a purchase
/// issue (they have no StoreKit transaction yet, so their identifier is a session-local one).
public final class SKTestTransaction: Sendable, CustomStringConvertible {
    /// The ID to pass to the session's actions (`refundTransaction(identifier:)`, …): the transaction
    /// ID, or the pending purchase's ID while it waits.
    public let identifier: Int
    /// The first transaction of the subscription it renews (its own ID for a one-off purchase).
    public let originalTransactionIdentifier: Int
    /// The product bought.
    public let productIdentifier: String
    /// StoreKit 1's state: `.purchased`, `.deferred` while Ask to Buy waits, `.failed` while a
    /// purchase issue (an interrupted purchase) waits.
    public let state: SKPaymentTransactionState
    /// When it was bought (or, for a waiting purchase, when it was asked for).
    public let purchaseDate: Date
    /// The refund (revocation) date.
    public let cancelDate: Date?
    /// When the subscription period it pays for ends; nil for other products and waiting purchases.
    public let expirationDate: Date?
    /// Whether the subscription will renew (its renewal info's auto-renew status is on).
    public let autoRenewingEnabled: Bool
    /// An interrupted purchase waiting for `resolveIssueForTransaction(identifier:)`, or a
    /// subscription in billing retry.
    public let hasPurchaseIssue: Bool
    /// The customer has not yet answered a price increase that needs consent.
    public let isPendingPriceIncreaseConsent: Bool
    /// The purchase waits for an Ask to Buy approval or decline.
    public let pendingAskToBuyConfirmation: Bool

    init(identifier: Int, originalTransactionIdentifier: Int, productIdentifier: String, purchaseDate: Date, cancelDate: Date?,
         expirationDate: Date?, autoRenewingEnabled: Bool, hasPurchaseIssue: Bool, isPendingPriceIncreaseConsent: Bool,
         pendingAskToBuyConfirmation: Bool, state: SKPaymentTransactionState) {
        self.identifier = identifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.productIdentifier = productIdentifier
        self.state = state
        self.purchaseDate = purchaseDate
        self.cancelDate = cancelDate
        self.expirationDate = expirationDate
        self.autoRenewingEnabled = autoRenewingEnabled
        self.hasPurchaseIssue = hasPurchaseIssue
        self.isPendingPriceIncreaseConsent = isPendingPriceIncreaseConsent
        self.pendingAskToBuyConfirmation = pendingAskToBuyConfirmation
    }

    /// The identifier, product and any refund, Ask to Buy or purchase issue, for test output.
    public var description: String {
        "SKTestTransaction(\(identifier), \(productIdentifier)\(cancelDate == nil ? "" : ", refunded")"
            + "\(pendingAskToBuyConfirmation ? ", awaiting Ask to Buy" : "")\(hasPurchaseIssue ? ", purchase issue" : ""))"
    }
}
