import Foundation

/// Asked by the queue before it goes on with a transaction when the storefront changed, and
/// before it shows a price-increase consent. Both are optional in StoreKit; the defaults here
/// are StoreKit's (continue; show).
public protocol SKPaymentQueueDelegate: NSObjectProtocol {
    func paymentQueue(_ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront) -> Bool
    func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool
}

extension SKPaymentQueueDelegate {
    /// StoreKit's default when the delegate does not implement it: go on with the transaction (true).
    public func paymentQueue(_ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront) -> Bool { true }
    /// StoreKit's default when the delegate does not implement it: show the consent (true).
    public func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool { true }
}
