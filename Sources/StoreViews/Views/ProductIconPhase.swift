import StoreKitTypes
import StoreShared

/// The phase of loading a product's promotional image, handed to the icon builders that take
/// one (`SubscriptionOfferView(id:icon:placeholderIcon:)`, `SubscriptionOfferView(_:icon:)`), as
/// StoreKit's `ProductIconPhase`. A `.storekit` catalog carries no promotional images, so once
/// the product has loaded the phase is `.unavailable`; while it loads it is `.loading`.
public enum ProductIconPhase {
    case loading
    case success(Image)
    case failure(StoreViewError)
    case unavailable
}

/// The app's icon where `useAppIcon: true` asks for it. A catalog has no icon artwork, so the
/// first character of a name from the catalog (the subscription group's display name) stands in,
/// drawn as text in a rounded square: no image file, no emoji font needed.
public struct AppIconMark: PrimitiveView {
    let name: String
    /// An icon standing for the app named `name`, drawn from its first letter or digit.
    public init(name: String) { self.name = name }
    /// A decorative `span` with the name's first letter or digit, uppercased ("•" if it has none).
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let initial = name.first(where: { $0.isLetter || $0.isNumber }).map { String($0).uppercased() } ?? "•"
        html.element("span", [("class", "sk-app-icon"), ("aria-hidden", "true")], text: initial)
    }
}
