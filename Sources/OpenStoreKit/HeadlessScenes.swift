#if !canImport(UIKit) && !canImport(AppKit)
/// StoreKit's UI calls take the scene to show a sheet in (`AppStore.showManageSubscriptions(in:)`,
/// `Transaction.beginRefundRequest(in:)`, …). Linux has no scenes, so these stand-ins exist for
/// that code to compile unchanged; the calls ignore them and do headlessly what the sheet would
/// (see each call). Where UIKit or AppKit exists, the real types are used instead.
open class UIScene: @unchecked Sendable {
    /// A scene to pass where StoreKit asks for one; it carries nothing.
    public init() {}
}

/// See `UIScene`: the window scene a StoreKit sheet would be shown in; ignored here.
open class UIWindowScene: UIScene, @unchecked Sendable {}

/// See `UIScene`: what a macOS app passes to `requestReview(in:)`; ignored here.
open class NSViewController: @unchecked Sendable {
    /// A view controller to pass where StoreKit asks for one; it carries nothing.
    public init() {}
}
#endif
