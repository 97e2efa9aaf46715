import StoreKitTypes
import StoreShared

/// How a `ProductView` (and each product of a `StoreView`) looks. Write your own by implementing
/// `makeBody(configuration:)`; `ProductView(configuration)` inside it draws the standard look, so a
/// custom style can wrap it.
public protocol ProductViewStyle {
    associatedtype Body: View
    typealias Configuration = ProductViewStyleConfiguration
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// What a product view style gets to draw with.
public struct ProductViewStyleConfiguration {
    public let product: Product?
    public let state: Product.TaskState
    /// True when the customer already owns the product (don't unlock content with it).
    public let hasCurrentEntitlement: Bool
    public let icon: Icon
    public let descriptionVisibility: Visibility
    let intent: PurchaseIntent?
    let session: RenderSession
    let standard: StandardProductViewStyle.Kind

    /// Buys the product with the hooks in effect here; call it from a `Button` action.
    public func purchase() {
        guard let intent else { return }
        session.requestPurchase(intent)
    }

    /// The type-erased icon the view was given (empty when none).
    public struct Icon: PrimitiveView {
        let view: AnyView?
        public func _render(_ context: RenderContext, _ html: HTMLWriter) { view?._render(context, html) }
    }
}

/// The built-in looks: automatic, compact, regular, large.
public struct StandardProductViewStyle: ProductViewStyle, Sendable {
    public enum Kind: String, Sendable { case automatic, compact, regular, large }
    public let kind: Kind

    public func makeBody(configuration: Configuration) -> some View {
        StandardProductBody(configuration: configuration, kind: kind == .automatic ? .regular : kind)
    }
}

extension ProductViewStyle where Self == StandardProductViewStyle {
    public static var automatic: StandardProductViewStyle { .init(kind: .automatic) }
    public static var compact: StandardProductViewStyle { .init(kind: .compact) }
    public static var regular: StandardProductViewStyle { .init(kind: .regular) }
    public static var large: StandardProductViewStyle { .init(kind: .large) }
}

/// A product view style with its type erased, as the environment stores it.
public struct AnyProductViewStyle {
    let standardKind: StandardProductViewStyle.Kind?
    let make: (ProductViewStyleConfiguration) -> AnyView

    public init<S: ProductViewStyle>(_ style: S) {
        standardKind = (style as? StandardProductViewStyle)?.kind
        make = { AnyView(style.makeBody(configuration: $0)) }
    }
}

extension View {
    /// Styles every `ProductView` and `StoreView` inside this view.
    public func productViewStyle(_ style: some ProductViewStyle) -> EnvironmentWriter<Self> {
        let erased = AnyProductViewStyle(style)
        return transformEnvironment { $0.productViewStyle = erased }
    }

    /// The App Store icon look: rounded corners and a hairline border.
    public func productIconBorder() -> EnvironmentWriter<Self> {
        transformEnvironment { $0.productIconBorder = true }
    }

    public func productDescription(_ visibility: Visibility) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.productDescriptionVisibility = visibility }
    }
}
