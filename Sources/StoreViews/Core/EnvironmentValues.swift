import StoreKitTypes
import StoreShared

/// Values a view passes down to everything inside it, as SwiftUI's environment: styles, button
/// visibilities, purchase hooks. A modifier changes them for its content only.
public struct EnvironmentValues {
    public var productViewStyle: AnyProductViewStyle = .init(.automatic)
    public var productIconBorder = false
    public var productDescriptionVisibility: Visibility = .automatic
    public var storeButtonVisibility: [StoreButtonKind: Visibility] = [:]
    public var subscriptionStoreSignInAction: (() -> Void)?
    public var policyDestinations: [SubscriptionStorePolicyKind: String] = [:]
    public var policyForegroundStyle: AnyShapeStyle?
    public var subscriptionStoreControlStyle: AnySubscriptionStoreControlStyle = .init(.automatic)
    public var subscriptionStoreButtonLabel: SubscriptionStoreButtonLabel = .automatic
    public var subscriptionStoreControlIcon: ((Product, Product.SubscriptionInfo) -> AnyView)?
    public var subscriptionStorePickerItemBackground: AnyShapeStyle?
    public var backgroundStyle: AnyShapeStyle?
    public var onInAppPurchaseStart: ((Product) async -> Void)?
    public var onInAppPurchaseCompletion: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?
    public var preferredSubscriptionOffer: ((Product, Product.SubscriptionInfo, [Product.SubscriptionOffer]) -> Product.SubscriptionOffer?)?
    /// SwiftUI's `isPresented`: true when the store is shown as a sheet, which makes the automatic
    /// cancellation button appear.
    public var isPresented = false
    public var font: Font?
    /// Closes the presented store (`@Environment(\.dismiss)`).
    public var dismiss = DismissAction {}
    var custom: [ObjectIdentifier: Any] = [:]

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
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        content._render(context.with(change), html)
    }
}

extension View {
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
    public init(@ViewBuilder content: @escaping (StoreSnapshot, EnvironmentValues) -> Content) {
        self.content = content
    }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        content(context.store, context.environment)._render(context, html)
    }
}
