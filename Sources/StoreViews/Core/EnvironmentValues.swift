import StoreKitTypes
import StoreShared

/// Values a view passes down to everything inside it, as SwiftUI's environment: styles, button
/// visibilities, purchase hooks. A modifier changes them for its content only.
public struct EnvironmentValues {
    /// The style every `ProductView` and `StoreView` product draws with; set by `productViewStyle(_:)`.
    public var productViewStyle: AnyProductViewStyle = .init(.automatic)
    /// Gives product icons the App Store's rounded, bordered look; set by `productIconBorder()`.
    public var productIconBorder = false
    /// True while a product view renders its icon slot, so `productIconBorder()` on the icon
    /// itself knows to draw the border there.
    public var isProductIcon = false
    /// Whether product descriptions show, from `productDescription(_:)`; automatic hides them only
    /// in the compact style.
    public var productDescriptionVisibility: Visibility = .automatic
    /// Per-kind overrides from `storeButton(_:for:)`; a kind not listed follows Apple's automatic rule.
    public var storeButtonVisibility: [StoreButtonKind: Visibility] = [:]
    /// The sign-in button's action; while nil, no store shows a sign-in button.
    public var subscriptionStoreSignInAction: (() -> Void)?
    /// Policy link URLs from `subscriptionStorePolicyDestination(url:for:)`, used instead of the catalog's.
    public var policyDestinations: [SubscriptionStorePolicyKind: String] = [:]
    /// Text color of the policy links, from `subscriptionStorePolicyForegroundStyle(_:)`.
    public var policyForegroundStyle: AnyShapeStyle?
    /// How subscription stores lay out their plans; set by `subscriptionStoreControlStyle(_:)`.
    public var subscriptionStoreControlStyle: AnySubscriptionStoreControlStyle = .init(.automatic)
    /// What subscribe buttons say; set by `subscriptionStoreButtonLabel(_:)`.
    public var subscriptionStoreButtonLabel: SubscriptionStoreButtonLabel = .automatic
    /// Draws the icon beside each plan; set by `subscriptionStoreControlIcon(icon:)`.
    public var subscriptionStoreControlIcon: ((Product, Product.SubscriptionInfo) -> AnyView)?
    /// Fill behind each plan in a picker; set by `subscriptionStorePickerItemBackground(_:)`.
    public var subscriptionStorePickerItemBackground: AnyShapeStyle?
    /// The CSS corner radius of each plan in a picker, from `subscriptionStorePickerItemBackground(_:in:)`.
    public var subscriptionStorePickerItemShape: String?
    /// Fill of a subscription store's controls area; set by `backgroundStyle(_:)`.
    public var backgroundStyle: AnyShapeStyle?
    /// The layer behind a subscription store's controls, from `subscriptionStoreControlBackground(_:)`;
    /// nil for the automatic one. It wins over `backgroundStyle`.
    public var subscriptionStoreControlBackground: SubscriptionStoreControlBackground?
    /// Runs before a purchase starts: every `onInAppPurchaseStart(perform:)` around here, chained.
    public var onInAppPurchaseStart: ((Product) async -> Void)?
    /// Handles a purchase's outcome; the innermost `onInAppPurchaseCompletion(perform:)` wins.
    public var onInAppPurchaseCompletion: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?
    /// Picks the offer subscription views show and apply; set by `preferredSubscriptionOffer(_:)`.
    public var preferredSubscriptionOffer: ((Product, Product.SubscriptionInfo, [Product.SubscriptionOffer]) -> Product.SubscriptionOffer?)?
    /// SwiftUI's `isPresented`: true when the store is shown as a sheet, which makes the automatic
    /// cancellation button appear.
    public var isPresented = false
    /// The variant every `Image(systemName:)` draws, from `symbolVariant(_:)`; `.none` clears it.
    public var symbolVariants: SymbolVariants = .none
    /// The text style `Text` draws in; title styles become headings. Set by `font(_:)`.
    public var font: Font?
    /// Closes the presented store (`@Environment(\.dismiss)`).
    public var dismiss = DismissAction {}
    var custom: [ObjectIdentifier: Any] = [:]

    /// The defaults: automatic styles and visibilities, no hooks, not presented.
    public init() {}

    /// Values of your own keys, as `@Entry` declares them in SwiftUI.
    public subscript<Key: EnvironmentKey>(key: Key.Type) -> Key.Value {
        get { custom[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { custom[ObjectIdentifier(key)] = newValue }
    }

    /// The visibility in effect for a kind of accessory button.
    public func visibility(of kind: StoreButtonKind) -> Visibility {
        storeButtonVisibility[kind] ?? .automatic
    }
}

/// Declares an environment value of your own with its default, read and written through
/// `EnvironmentValues[_:]`, as SwiftUI's `EnvironmentKey`.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// `visible`, `hidden`, or the view's own choice.
public enum Visibility: String, Sendable, CaseIterable {
    case automatic, visible, hidden
}

/// Applies an environment change to its content.
public struct EnvironmentWriter<Content: View>: PrimitiveView {
    let content: Content
    let change: (inout EnvironmentValues) -> Void
    /// Renders the content with the changed environment; the writer itself adds no markup.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        content._render(context.with(change), html)
    }
}

extension View {
    /// Sets one environment value for this view's content, as SwiftUI's `environment(_:_:)`.
    public func environment<Value>(_ keyPath: WritableKeyPath<EnvironmentValues, Value>, _ value: Value) -> EnvironmentWriter<Self> {
        EnvironmentWriter(content: self) { $0[keyPath: keyPath] = value }
    }

    func transformEnvironment(_ change: @escaping (inout EnvironmentValues) -> Void) -> EnvironmentWriter<Self> {
        EnvironmentWriter(content: self, change: change)
    }
}

/// Reads the environment and the store's data while the page renders, the way a SwiftUI view
/// reads `@Environment`: `StoreReader { store, environment in … }`.
public struct StoreReader<Content: View>: PrimitiveView {
    let content: (StoreSnapshot, EnvironmentValues) -> Content
    /// Builds the content from the store's data and the environment at this point of the page.
    public init(@ViewBuilder content: @escaping (StoreSnapshot, EnvironmentValues) -> Content) {
        self.content = content
    }
    /// Renders the content built from this render's snapshot and environment; adds no markup itself.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        content(context.store, context.environment)._render(context, html)
    }
}
