import StoreKitTypes
import StoreShared

/// One in-app purchase: its name, description, price and a buy button, loaded by ID.
public struct ProductView<Icon: View, PlaceholderIcon: View>: PrimitiveView {
    enum Source { case id(Product.ID), product(Product), configuration(ProductViewStyleConfiguration) }
    let source: Source
    let prefersPromotionalIcon: Bool
    let icon: Icon?
    let placeholderIcon: PlaceholderIcon?

    /// Mirrors `ProductView(id:prefersPromotionalIcon:icon:placeholderIcon:)`: loads the product by ID.
    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        source = .id(productID)
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon()
        self.placeholderIcon = placeholderIcon()
    }

    /// Mirrors `ProductView(_:prefersPromotionalIcon:icon:placeholderIcon:)`: for a product already loaded.
    public init(_ product: Product, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        source = .product(product)
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon()
        self.placeholderIcon = placeholderIcon()
    }

    init(source: Source, prefersPromotionalIcon: Bool, icon: Icon?, placeholderIcon: PlaceholderIcon?) {
        self.source = source
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon
        self.placeholderIcon = placeholderIcon
    }

    /// Draws the product through the style in the environment; inside a custom style, the standard look.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if case .configuration(let configuration) = source {
            // Inside a custom style: the standard look, never the custom style again.
            let kind = context.environment.productViewStyle.standardKind ?? configuration.standard
            StandardProductViewStyle(kind: kind).makeBody(configuration: configuration)._render(context, html)
            return
        }
        let configuration = makeConfiguration(context)
        context.environment.productViewStyle.make(configuration)._render(context, html)
    }

    func makeConfiguration(_ context: RenderContext) -> ProductViewStyleConfiguration {
        let store = context.store
        let state: Product.TaskState
        switch source {
        case .id(let id): state = context.session.phase == .loading ? .loading : store.taskState(for: id)
        case .product(let product): state = .success(product)
        case .configuration(let configuration): state = configuration.state
        }
        let product = state.product
        let environment = context.environment
        let intent = product.map {
            PurchaseIntent(productID: $0.id, onStart: environment.onInAppPurchaseStart, onCompletion: environment.onInAppPurchaseCompletion)
        }
        let shownIcon: AnyView?
        if case .loading = state {
            shownIcon = placeholderIcon.map { AnyView($0) } ?? (icon == nil && !prefersPromotionalIcon ? nil : AnyView(AutomaticProductPlaceholderIcon()))
        } else if let icon {
            shownIcon = AnyView(icon)
        } else if prefersPromotionalIcon {
            // The catalog carries no promotional images; StoreKit then keeps the placeholder.
            shownIcon = AnyView(AutomaticProductPlaceholderIcon())
        } else {
            shownIcon = nil
        }
        return ProductViewStyleConfiguration(
            product: product, state: state, hasCurrentEntitlement: product.map { store.hasCurrentEntitlement($0.id) } ?? false,
            icon: .init(view: shownIcon), descriptionVisibility: environment.productDescriptionVisibility,
            intent: intent, session: context.session, standard: environment.productViewStyle.standardKind ?? .automatic)
    }
}

extension ProductView where Icon == EmptyView, PlaceholderIcon == EmptyView {
    /// Loads the product by ID and shows it without an icon (or the placeholder, with `prefersPromotionalIcon`).
    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false) {
        self.init(source: .id(productID), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    /// Shows an already loaded product without an icon (or the placeholder, with `prefersPromotionalIcon`).
    public init(_ product: Product, prefersPromotionalIcon: Bool = false) {
        self.init(source: .product(product), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    /// The standard look for a configuration, for custom styles that wrap it.
    public init(_ configuration: ProductViewStyleConfiguration) {
        self.init(source: .configuration(configuration), prefersPromotionalIcon: false, icon: nil, placeholderIcon: nil)
    }
}

extension ProductView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    /// Loads the product by ID and shows your icon, StoreKit's grey square while it loads.
    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .id(productID), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(),
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
    /// Shows an already loaded product with your icon.
    public init(_ product: Product, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .product(product), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(),
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

/// The grey rounded square StoreKit shows while a product's icon loads.
public struct AutomaticProductPlaceholderIcon: PrimitiveView {
    /// StoreKit's placeholder for your own use, e.g. as a `placeholderIcon`.
    public init() {}
    /// A decorative empty `span` the stylesheet draws as the grey square.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("span", [("class", "sk-placeholder-icon"), ("aria-hidden", "true")], text: "")
    }
}
