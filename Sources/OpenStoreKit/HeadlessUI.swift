import Foundation
import StoreKitTypes

// StoreKit's calls that show UI, with their exact signatures, so an app's code compiles
// unchanged. There is nothing to show on Linux: each does what the sheet would end in, against
// the store, and says so. The headless forms with arguments (`redeemOfferCode(_:)`,
// `beginRefundRequest(reason:)`, `requestReview()`, `showManageSubscriptions()`) stay for code
// that wants to choose the outcome.

#if !canImport(UIKit) && !canImport(AppKit)
extension AppStore {
    /// `showManageSubscriptions(in:)`: calls the store's manage-subscriptions route (and its
    /// simulated error), as the sheet opening would; the customer manages at `/manage`.
    public static func showManageSubscriptions(in scene: UIWindowScene) async throws {
        _ = try await showManageSubscriptions()
    }

    /// `showManageSubscriptions(in:subscriptionGroupID:)`: as `showManageSubscriptions(in:)`.
    public static func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupID: String) async throws {
        _ = try await showManageSubscriptions()
    }

    /// `presentOfferCodeRedeemSheet(in:)`: there is no sheet to type a code into, so this returns
    /// as when the customer closes it; redeem with `redeemOfferCode(_:)`. A code redeemed
    /// elsewhere (the `/store` pages, the admin API) arrives on `Transaction.updates`.
    public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        _ = try await OpenStoreKit.connection().start()
    }

    /// `requestReview(in:)`: records the request with the store, which decides whether a prompt
    /// would show (at most 3 times in 365 days, once per version); see `requestReview()`.
    public static func requestReview(in scene: UIWindowScene) {
        requestReviewInBackground()
    }

    /// `requestReview(in:)` (macOS): as the scene form.
    public static func requestReview(in controller: NSViewController) {
        requestReviewInBackground()
    }

    private static func requestReviewInBackground() {
        let connection = Result { try OpenStoreKit.connection() }
        Task {
            do {
                try await OpenStoreKit.withConnection(connection.get()) { _ = try await requestReview() }
            } catch {
                OpenStoreKit.logger.warning("AppStore.requestReview(in:): \(error)")
            }
        }
    }
}

extension Transaction {
    /// `beginRefundRequest(in:)`: the customer asks for a refund with the reason "Other" (the
    /// sheet's choice is not there to make; `beginRefundRequest(reason:)` chooses it).
    public func beginRefundRequest(in scene: UIWindowScene) async throws -> RefundRequestStatus {
        try await beginRefundRequest(reason: "OTHER")
    }

    /// `beginRefundRequest(for:in:)`: as `beginRefundRequest(in:)`, for a transaction ID.
    public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> RefundRequestStatus {
        try await beginRefundRequest(for: transactionID, reason: "OTHER")
    }
}

extension Message {
    /// `display(in:)`: tells the store the message was shown (as `display()`), in the background,
    /// since StoreKit's call does not wait.
    public func display(in scene: UIWindowScene) throws {
        let message = self
        let connection = Result { try OpenStoreKit.connection() }
        Task {
            do {
                try await OpenStoreKit.withConnection(connection.get()) { try await message.display() }
            } catch {
                OpenStoreKit.logger.warning("Message.display(in:): \(error)")
            }
        }
    }
}

extension Product {
    /// `purchase(confirmIn:options:)`: buys as `purchase(options:)`; there is no sheet to confirm in.
    public func purchase(confirmIn scene: UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await purchase(options: options)
    }
}
#endif

extension AppStore {
    /// `AppStore.canMakePayments`: whether this "device" may buy. No parental controls or device
    /// restrictions exist here, so it is true; a refusal comes from the store at purchase time
    /// (`Product.PurchaseError.purchaseNotAllowed`, the Transaction Manager's simulated errors).
    public static var canMakePayments: Bool { true }

    /// `AppStore.deviceVerificationID`: nil, as the store signs no device verification.
    public static var deviceVerificationID: UUID? { nil }
}
