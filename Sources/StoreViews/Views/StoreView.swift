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

    /// Mirrors `StoreView(ids:prefersPromotionalIcon:icon:placeholderIcon:)`: loads the products by ID.
    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false,
                @ViewBuilder icon: @escaping (Product) -> Icon, @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: placeholderIcon())
    }

    /// Mirrors `StoreView(products:prefersPromotionalIcon:icon:placeholderIcon:)`: for products already loaded.
    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false,
                @ViewBuilder icon: @escaping (Product) -> Icon, @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: placeholderIcon())
    }

    /// A `section` with a grid of product cells, Close at the top and Restore at the bottom when shown.
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
    /// Loads the products by ID and shows them without icons (placeholders with `prefersPromotionalIcon`).
    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    /// Shows already loaded products without icons (placeholders with `prefersPromotionalIcon`).
    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
}

extension StoreView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    /// Loads the products by ID with an icon per product, StoreKit's grey square while they load.
    public init(ids productIDs: some Collection<String>, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: @escaping (Product) -> Icon) {
        self.init(source: .ids(Array(productIDs)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon,
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

extension StoreView where PlaceholderIcon == EmptyView {
    /// Shows already loaded products with an icon per product.
    public init(products: some Collection<Product>, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: @escaping (Product) -> Icon) {
        self.init(source: .products(Array(products)), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon, placeholderIcon: nil)
    }
}
