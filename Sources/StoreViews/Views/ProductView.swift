import StoreKitTypes
import StoreShared

/// One in-app purchase: its name, description, price and a buy button, loaded by ID.
public struct ProductView<Icon: View, PlaceholderIcon: View>: PrimitiveView {
    enum Source { case id(Product.ID), product(Product), configuration(ProductViewStyleConfiguration) }
    let source: Source
    let prefersPromotionalIcon: Bool
    let icon: Icon?
    let placeholderIcon: PlaceholderIcon?

    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        source = .id(productID)
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon()
        self.placeholderIcon = placeholderIcon()
    }

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
    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false) {
        self.init(source: .id(productID), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    public init(_ product: Product, prefersPromotionalIcon: Bool = false) {
        self.init(source: .product(product), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    /// The standard look for a configuration, for custom styles that wrap it.
    public init(_ configuration: ProductViewStyleConfiguration) {
        self.init(source: .configuration(configuration), prefersPromotionalIcon: false, icon: nil, placeholderIcon: nil)
    }
}

extension ProductView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    public init(id productID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .id(productID), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(),
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
    public init(_ product: Product, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .product(product), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(),
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

/// The grey rounded square StoreKit shows while a product's icon loads.
public struct AutomaticProductPlaceholderIcon: PrimitiveView {
    public init() {}
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("span", [("class", "sk-placeholder-icon"), ("aria-hidden", "true")], text: "")
    }
}
