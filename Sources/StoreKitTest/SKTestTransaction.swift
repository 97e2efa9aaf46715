import Foundation
import StoreKit

/// One transaction of the session's store as `SKTestSession.allTransactions()` lists it: what the
/// Transaction Manager shows, including purchases still waiting for Ask to Buy or a purchase
/// issue (they have no StoreKit transaction yet, so their identifier is a session-local one).
public final class SKTestTransaction: Sendable, CustomStringConvertible {
    public let identifier: Int
    public let originalTransactionIdentifier: Int
    public let productIdentifier: String
    /// StoreKit 1's state: `.purchased`, `.deferred` while Ask to Buy waits, `.failed` while a
    /// purchase issue (an interrupted purchase) waits.
    public let state: SKPaymentTransactionState
    public let purchaseDate: Date
    /// The refund (revocation) date.
    public let cancelDate: Date?
    public let expirationDate: Date?
    public let autoRenewingEnabled: Bool
    public let hasPurchaseIssue: Bool
    public let isPendingPriceIncreaseConsent: Bool
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

    public var description: String {
        "SKTestTransaction(\(identifier), \(productIdentifier)\(cancelDate == nil ? "" : ", refunded")"
            + "\(pendingAskToBuyConfirmation ? ", awaiting Ask to Buy" : "")\(hasPurchaseIssue ? ", purchase issue" : ""))"
    }
}
