import Foundation
import StoreKitTypes
import StoreModel
import StoreViews

/// The static pages of `openstore preview`: what a catalog looks like in the store views, for one
/// storefront and locale. Forms have nowhere to post in a static file, so they post to "#".
struct PreviewSite {
    let catalog: Catalog
    let storefront: StoreModel.Storefront
    let locale: String
    var scheme: PageRenderer.ColorScheme = .automatic

    struct Page {
        let fileName: String
        let html: String
    }

    /// Apple's standard EULA, which applies when the catalog has no custom EULA text.

    /// index.html, loading.html, then one page per product and one per subscription group.
    func pages() -> [Page] {
        let products = Product.products(of: catalog, storefront: storefront, locale: locale)
        let policies = Self.policies(catalog, locale: locale)
        let store = StoreSnapshot(products: products, termsOfServiceURL: policies.terms, privacyPolicyURL: policies.privacy)
        var names = PreviewFileNames()
        let productFiles = products.map { (product: $0, file: names.make("product", $0.id)) }
        let groupFiles = catalog.subscriptionGroups.map {
            (id: $0.id, name: $0.displayName(for: locale), file: names.make("group", $0.id))
        }
        var links = [("index.html", "All products"), ("loading.html", "Loading")]
        links += productFiles.map { ($0.file, $0.product.displayName) }
        links += groupFiles.map { ($0.file, $0.name) }
        let navigation = AnyView(PreviewNavigation(title: "Preview · \(storefront.countryCode) · \(locale)", links: links))

        func render(_ view: some View, title: String, phase: RenderPhase = .loaded) -> String {
            PageRenderer.render(view, store: store, options: .init(
                title: title, language: locale.replacingOccurrences(of: "_", with: "-"), colorScheme: scheme,
                actionURL: "#", phase: phase, header: navigation)).html
        }
        var pages = [
            Page(fileName: "index.html", html: render(CatalogPreview(products: products), title: "Store preview")),
            Page(fileName: "loading.html", html: render(CatalogPreview(products: products), title: "Store preview (loading)", phase: .loading)),
        ]
        for (product, file) in productFiles {
            pages.append(Page(fileName: file, html: render(ProductStylesPreview(productID: product.id), title: product.displayName)))
        }
        for group in groupFiles {
            pages.append(Page(fileName: group.file, html: render(GroupStylesPreview(groupID: group.id), title: group.name)))
        }
        return pages
    }

    /// The policy links a subscription store shows: the privacy policy for the locale (else its
    /// language, else the first), and Apple's standard EULA unless the catalog has its own text,
    /// which has no address to link to.
    static func policies(_ catalog: Catalog, locale: String) -> (terms: String?, privacy: String?) {
        let policies = catalog.appPolicies ?? AppPolicies()
        return (policies.customEULA == nil ? AppPolicies.standardEULA : nil, policies.privacyPolicy(for: locale, linkedOnly: true)?.url)
    }
}

/// Every `ProductView` style for one product.
struct ProductStylesPreview: View {
    let productID: String
    static let styles: [(String, StandardProductViewStyle)] = [
        ("automatic", .automatic), ("compact", .compact), ("regular", .regular), ("large", .large),
    ]
    var body: some View {
        VStack(alignment: .leading, spacing: 24) {
            ForEach(Self.styles, id: \.0) { name, style in
                PreviewSection(id: "product-\(name)", title: "ProductView · .\(name)") {
                    ProductView(id: productID).productViewStyle(style)
                }
            }
        }
    }
}

/// Every subscription control style for one group, restore and redeem shown so they can be seen.
struct GroupStylesPreview: View {
    let groupID: String
    static let styles: [(String, StandardSubscriptionStoreControlStyle)] = [
        ("automatic", .automatic), ("picker", .picker), ("prominentPicker", .prominentPicker), ("buttons", .buttons),
        ("compactPicker", .compactPicker), ("pagedPicker", .pagedPicker), ("pagedProminentPicker", .pagedProminentPicker),
    ]
    var body: some View {
        VStack(alignment: .leading, spacing: 24) {
            ForEach(Self.styles, id: \.0) { name, style in
                PreviewSection(id: "control-\(name)", title: "SubscriptionStoreView · .\(name)") {
                    SubscriptionStoreView(groupID: groupID)
                        .subscriptionStoreControlStyle(style)
                        .storeButton(.visible, for: .restorePurchases, .redeemCode, .policies)
                }
            }
        }
    }
}

/// A titled section, marked `data-gallery` like the catalog gallery's, for tests and screenshots.
struct PreviewSection<Content: View>: View {
    let id: String
    let title: String
    @ViewBuilder let content: () -> Content
    var body: some View {
        Element("section", class: "sk-gallery-section", attributes: [("data-gallery", id)]) {
            Element("h2", class: "sk-section-title") { Text(title) }
            content()
        }
    }
}

/// Links between the preview's pages. File names are ours (sanitized), so plain relative hrefs.
struct PreviewNavigation: View {
    let title: String
    let links: [(file: String, label: String)]
    var body: some View {
        Element("strong") { Text(title) }
        Element("nav", attributes: [("aria-label", "Preview pages")]) {
            HStack(spacing: 12) {
                ForEach(links, id: \.file) { link in
                    Element("a", attributes: [("href", link.file)]) { Text(link.label) }
                }
            }
        }
    }
}

/// File names for catalog IDs, which may contain anything (`/`, `..`, quotes, any script): only
/// ASCII letters, digits, `.`, `-` and `_` are kept, and a changed or colliding name (also
/// ignoring case, for case-insensitive disks) gets a stable hash of the ID, so every ID gets its
/// own file and names are the same run after run.
struct PreviewFileNames {
    private var taken: Set<String> = ["index.html", "loading.html"]

    mutating func make(_ prefix: String, _ id: String) -> String {
        var safe = String(String.UnicodeScalarView(id.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? scalar : "_"
        }).prefix(80))
        if safe != id || safe.isEmpty { safe += "-" + Self.hash(id) }
        var name = "\(prefix)-\(safe).html"
        if taken.contains(name.lowercased()) { name = "\(prefix)-\(safe)-\(Self.hash(prefix + id)).html" }
        var counter = 2
        while taken.contains(name.lowercased()) {
            name = "\(prefix)-\(safe)-\(counter).html"
            counter += 1
        }
        taken.insert(name.lowercased())
        return name
    }

    /// FNV-1a of the UTF-8 bytes, as 8 hex digits: stable across runs, unlike `Hasher`.
    static func hash(_ text: String) -> String {
        var value: UInt32 = 2_166_136_261
        for byte in text.utf8 { value = (value ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
