import Foundation

/// A StoreKit API a session can make fail (`setSimulatedError(_:forAPI:)`), after Apple's
/// protocol of the same name: `.loadProducts`, `.purchase`, `.verification`, … each with the
/// failure type it accepts.
public protocol FailableStoreKitAPI<Failure>: Sendable {
    associatedtype Failure: SKTestFailure
}

/// The name the store (and a `.storekit` file's `_storeKitErrors`) gives each API.
protocol NamedAPI {
    static var apiName: String { get }
}

public struct StoreKitLoadProductsAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.LoadProducts
    static let apiName = "Load Products"
    public init() {}
}
public struct StoreKitPurchaseAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.Purchase
    static let apiName = "Purchase"
    public init() {}
}
public struct StoreKitVerificationAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.Verification
    static let apiName = "Verification"
    public init() {}
}
public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.AppStoreSync
    static let apiName = "App Store Sync"
    public init() {}
}
public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.SubscriptionStatus
    static let apiName = "Subscription Status"
    public init() {}
}
public struct StoreKitAppTransactionAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.AppTransaction
    static let apiName = "App Transaction"
    public init() {}
}
public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.ManageSubscriptions
    static let apiName = "Manage Subscriptions Sheet"
    public init() {}
}
public struct StoreKitRefundRequestAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.RefundRequest
    static let apiName = "Refund Request Sheet"
    public init() {}
}
public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI, NamedAPI {
    public typealias Failure = SKTestFailures.OfferCodeRedeem
    static let apiName = "Offer Code Redeem Sheet"
    public init() {}
}

extension FailableStoreKitAPI where Self == StoreKitLoadProductsAPI { public static var loadProducts: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitPurchaseAPI { public static var purchase: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitVerificationAPI { public static var verification: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitAppStoreSyncAPI { public static var appStoreSync: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitSubscriptionStatusAPI { public static var subscriptionStatus: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitAppTransactionAPI { public static var appTransaction: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitManageSubscriptionsAPI { public static var manageSubscriptions: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitRefundRequestAPI { public static var refundRequest: Self { .init() } }
extension FailableStoreKitAPI where Self == StoreKitOfferCodeRedeemAPI { public static var offerCodeRedeem: Self { .init() } }
