import StoreKitTypes
import StoreShared

/// Every product of a catalog in every product view style, and every subscription group in every
/// control style: the "Xcode Previews" of a catalog (`openstore preview`) and the demo gallery.
public struct CatalogPreview: View {
    let products: [Product]

    /// A gallery of `products`, e.g. a catalog's products for one storefront.
    public init(products: [Product]) {
        self.products = products
    }

    var groups: [String] {
        var seen: [String] = []
        for product in products {
            if let group = product.subscription?.subscriptionGroupID, !seen.contains(group) { seen.append(group) }
        }
        return seen
    }

    func groupName(_ group: String) -> String {
        products.first { $0.subscription?.subscriptionGroupID == group }?.subscription?.groupDisplayName ?? group
    }

    /// Each product view style in turn, a `StoreView` of the non-subscriptions, then each group in
    /// each control style.
    public var body: some View {
        VStack(alignment: .leading, spacing: 24) {
            ForEach(Self.productStyles, id: \.0) { name, style in
                GallerySection(id: "product-\(name)", title: "ProductView · .\(name)") {
                    VStack(alignment: .leading, spacing: 12) {
                        ForEach(products, id: \.id) { product in ProductView(product) }
                    }
                    .productViewStyle(style)
                }
            }
            GallerySection(id: "store-view", title: "StoreView") {
                StoreView(ids: products.filter { $0.subscription == nil }.map(\.id))
            }
            ForEach(groups, id: \.self) { group in
                ForEach(Self.controlStyles, id: \.0) { name, style in
                    GallerySection(id: "control-\(name)", title: "SubscriptionStoreView · .\(name)", group: group, groupName: groupName(group)) {
                        SubscriptionStoreView(groupID: group)
                            .subscriptionStoreControlStyle(style)
                            .storeButton(.visible, for: .restorePurchases, .redeemCode, .policies)
                    }
                }
            }
        }
    }

    static let productStyles: [(String, StandardProductViewStyle)] = [
        ("compact", .compact), ("regular", .regular), ("large", .large),
    ]

    static let controlStyles: [(String, StandardSubscriptionStoreControlStyle)] = [
        ("automatic", .automatic), ("picker", .picker), ("prominentPicker", .prominentPicker), ("buttons", .buttons),
        ("compactPicker", .compactPicker), ("pagedPicker", .pagedPicker), ("pagedProminentPicker", .pagedProminentPicker),
    ]
}

/// A titled section of a gallery, marked `data-gallery` so tests and screenshots can find it.
struct GallerySection<Content: View>: PrimitiveView {
    let id: String
    let title: String
    var group: String?
    var groupName: String?
    let content: Content

    init(id: String, title: String, group: String? = nil, groupName: String? = nil, @ViewBuilder content: () -> Content) {
        self.id = id
        self.title = title
        self.group = group
        self.groupName = groupName
        self.content = content()
    }

    func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let heading = context.session.uniqueID("gallery")
        html.open("section", [("class", "sk-gallery-section"), ("data-gallery", id), ("data-group-id", group), ("aria-labelledby", heading)])
        html.element("h2", [("id", heading), ("class", "sk-section-title")], text: (groupName ?? group).map { "\(title) — \($0)" } ?? title)
        content._render(context, html)
        html.close("section")
    }
}
