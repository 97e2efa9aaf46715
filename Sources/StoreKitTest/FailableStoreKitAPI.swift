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

/// Apple's `StoreKitLoadProductsAPI`: the "Load Products" API, `Product.products(for:)`.
public struct StoreKitLoadProductsAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.LoadProducts
    static let apiName = "Load Products"
    /// The API value; callers usually write `.loadProducts`.
    public init() {}
}
/// Apple's `StoreKitPurchaseAPI`: the "Purchase" API, a purchase (`Product.purchase(options:)`).
public struct StoreKitPurchaseAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`) or a `Product.PurchaseError` (`.purchase`).
    public typealias Failure = SKTestFailures.Purchase
    static let apiName = "Purchase"
    /// The API value; callers usually write `.purchase`.
    public init() {}
}
/// Apple's `StoreKitVerificationAPI`: the "Verification" API, the check of the signed data the device gets.
public struct StoreKitVerificationAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `VerificationResult.VerificationError` only.
    public typealias Failure = SKTestFailures.Verification
    static let apiName = "Verification"
    /// The API value; callers usually write `.verification`.
    public init() {}
}
/// Apple's `StoreKitAppStoreSyncAPI`: the "App Store Sync" API, `AppStore.sync()`.
public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.AppStoreSync
    static let apiName = "App Store Sync"
    /// The API value; callers usually write `.appStoreSync`.
    public init() {}
}
/// Apple's `StoreKitSubscriptionStatusAPI`: the "Subscription Status" API, reading subscription statuses.
public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.SubscriptionStatus
    static let apiName = "Subscription Status"
    /// The API value; callers usually write `.subscriptionStatus`.
    public init() {}
}
/// Apple's `StoreKitAppTransactionAPI`: the "App Transaction" API, `AppTransaction.shared`.
public struct StoreKitAppTransactionAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.AppTransaction
    static let apiName = "App Transaction"
    /// The API value; callers usually write `.appTransaction`.
    public init() {}
}
/// Apple's `StoreKitManageSubscriptionsAPI`: the "Manage Subscriptions Sheet" API, `showManageSubscriptions(in:)`.
public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.ManageSubscriptions
    static let apiName = "Manage Subscriptions Sheet"
    /// The API value; callers usually write `.manageSubscriptions`.
    public init() {}
}
/// Apple's `StoreKitRefundRequestAPI`: the "Refund Request Sheet" API, `Transaction.beginRefundRequest(in:)`.
public struct StoreKitRefundRequestAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`) or a `Transaction.RefundRequestError` (`.refundRequest`).
    public typealias Failure = SKTestFailures.RefundRequest
    static let apiName = "Refund Request Sheet"
    /// The API value; callers usually write `.refundRequest`.
    public init() {}
}
/// Apple's `StoreKitOfferCodeRedeemAPI`: the "Offer Code Redeem Sheet" API, the offer code redemption sheet.
public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI, NamedAPI {
    /// Fails with a `StoreKitError` (`.generic`).
    public typealias Failure = SKTestFailures.OfferCodeRedeem
    static let apiName = "Offer Code Redeem Sheet"
    /// The API value; callers usually write `.offerCodeRedeem`.
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
