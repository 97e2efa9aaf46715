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
    /// The loaded product; nil while loading, when unavailable or when loading failed.
    public let product: Product?
    /// Where loading stands, so a style can draw placeholders, "Unavailable" or the error.
    public let state: Product.TaskState
    /// True when the customer already owns the product (don't unlock content with it).
    public let hasCurrentEntitlement: Bool
    /// The icon the view was given, or the placeholder while loading.
    public let icon: Icon
    /// Whether to show the description, from `productDescription(_:)`.
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
        /// Renders the given icon, or nothing.
        public func _render(_ context: RenderContext, _ html: HTMLWriter) { view?._render(context, html) }
    }
}

/// The built-in looks: automatic, compact, regular, large.
public struct StandardProductViewStyle: ProductViewStyle, Sendable {
    /// The built-in looks by name; the name also ends the article's `sk-product-` CSS class.
    public enum Kind: String, Sendable { case automatic, compact, regular, large }
    /// Which built-in look this is.
    public let kind: Kind

    /// The standard product markup; automatic draws as regular.
    public func makeBody(configuration: Configuration) -> some View {
        StandardProductBody(configuration: configuration, kind: kind == .automatic ? .regular : kind)
    }
}

extension ProductViewStyle where Self == StandardProductViewStyle {
    /// Mirrors `ProductViewStyle.automatic`: drawn as the regular style here.
    public static var automatic: StandardProductViewStyle { .init(kind: .automatic) }
    /// Mirrors `ProductViewStyle.compact`: a tighter row with a smaller icon; no description unless asked.
    public static var compact: StandardProductViewStyle { .init(kind: .compact) }
    /// Mirrors `ProductViewStyle.regular`: icon, name, description and the buy button, full size.
    public static var regular: StandardProductViewStyle { .init(kind: .regular) }
    /// Mirrors `ProductViewStyle.large`: one centred column with a big icon and name.
    public static var large: StandardProductViewStyle { .init(kind: .large) }
}

/// A product view style with its type erased, as the environment stores it.
public struct AnyProductViewStyle {
    let standardKind: StandardProductViewStyle.Kind?
    let make: (ProductViewStyleConfiguration) -> AnyView

    /// Wraps any style; a built-in one is remembered so `ProductView(configuration)` keeps its look.
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

    /// The App Store icon look: rounded corners and a hairline border ("Adds a standard border to
    /// an in-app purchase product's icon"). On a store or product view it borders every product
    /// icon inside; on the icon view itself, as the WWDC23 talk places it, it borders that icon.
    public func productIconBorder() -> ProductIconBorder<Self> {
        ProductIconBorder(content: self)
    }

    /// Shows or hides product descriptions inside this view, as SwiftUI's `productDescription(_:)`.
    public func productDescription(_ visibility: Visibility) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.productDescriptionVisibility = visibility }
    }
}

/// What `productIconBorder()` returns: inside a product's icon slot it draws the border around its
/// content; anywhere else it sets `productIconBorder` for the product views inside, which border
/// their icon slots.
public struct ProductIconBorder<Content: View>: PrimitiveView {
    let content: Content

    /// Borders the icon it wraps, or tells the product views inside to border theirs.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if context.environment.isProductIcon && !context.environment.productIconBorder {
            html.open("span", [("class", "sk-icon-border sk-icon-fill")])
            content._render(context.with { $0.productIconBorder = true }, html)
            html.close("span")
        } else {
            content._render(context.with { $0.productIconBorder = true }, html)
        }
    }
}
