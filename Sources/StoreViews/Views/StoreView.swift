import StoreKitTypes
import StoreShared

/// A whole store of products in rows that add columns as the page widens. Restore is hidden unless
/// `storeButton(.visible, for: .restorePurchases)`; Cancel shows only when presented.
public struct StoreView<Icon: View, PlaceholderIcon: View>: PrimitiveView {
    enum Source { case ids([Product.ID]), products([Product]) }
    let source: Source
    let prefersPromotionalIcon: Bool
    let icon: ((Product) -> Icon)?
    let placeholderIcon: PlaceholderIcon?

    init(source: Source, prefersPromotionalIcon: Bool, icon: ((Product) -> Icon)?, placeholderIcon: PlaceholderIcon?) {
        self.source = source
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon
        self.placeholderIcon = placeholderIcon
    }

    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false,
                @ViewBuilder icon: @escaping (Product) -> Icon, @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: placeholderIcon())
    }

    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false,
                @ViewBuilder icon: @escaping (Product) -> Icon, @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: placeholderIcon())
    }

    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("section", [("class", "sk-store"), ("aria-label", "Store")])
        StoreAccessoryButtons(kinds: [.cancellation], context: context).render(html, placement: "top")
        html.open("ul", [("class", "sk-store-grid")])
        switch source {
        case .ids(let ids):
            for id in ids { cell(.id(id), context, html) }
        case .products(let products):
            for product in products { cell(.product(product), context, html) }
        }
        html.close("ul")
        StoreAccessoryButtons(kinds: [.restorePurchases], context: context).render(html, placement: "bottom")
        html.close("section")
    }

    func cell(_ item: ProductView<AnyView, AnyView>.Source, _ context: RenderContext, _ html: HTMLWriter) {
        var product: Product?
        switch item {
        case .id(let id): product = context.session.phase == .loading ? nil : context.store.product(id)
        case .product(let value): product = value
        case .configuration: break
        }
        let shownIcon: AnyView? = icon.flatMap { make in product.map { AnyView(make($0)) } }
        let placeholder: AnyView? = placeholderIcon.map { AnyView($0) } ?? (icon == nil ? nil : AnyView(AutomaticProductPlaceholderIcon()))
        html.open("li", [("class", "sk-store-cell")])
        ProductView<AnyView, AnyView>(source: item, prefersPromotionalIcon: prefersPromotionalIcon, icon: shownIcon,
                                      placeholderIcon: placeholder)._render(context, html)
        html.close("li")
    }
}

extension StoreView where Icon == EmptyView, PlaceholderIcon == EmptyView {
    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
}

extension StoreView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: @escaping (Product) -> Icon) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon,
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

extension StoreView where PlaceholderIcon == EmptyView {
    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: @escaping (Product) -> Icon) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: nil)
    }
}
