import StoreKitTypes
import StoreShared

/// How a `SubscriptionOfferView` (iOS 26) looks: `.automatic`, `.compact`, or your own drawing
/// from `SubscriptionOfferViewStyleConfiguration`; `SubscriptionOfferView(configuration)` inside
/// it draws the standard look. https://developer.apple.com/documentation/storekit/subscriptionofferviewstyle
public protocol SubscriptionOfferViewStyle {
    associatedtype Body: View
    typealias Configuration = SubscriptionOfferViewStyleConfiguration
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// What an offer view style draws with, as Apple's `SubscriptionOfferViewStyleConfiguration`.
public struct SubscriptionOfferViewStyleConfiguration {
    /// The offer the customer is eligible for and a subscribe applies; show its terms.
    public let activeOffer: Product.SubscriptionOffer?
    /// The icon the view was given, the app icon, or the placeholder while loading.
    public let icon: Icon
    /// Where loading the subscriptions stands, so a style can draw loading and failure.
    public let state: Product.CollectionTaskState
    /// The customer's subscription statuses in the plan's group; empty when there are none.
    public let subscriptionStatus: [Product.SubscriptionInfo.Status]
    /// The plan the view merchandises.
    public var visibleSubscription: Product?
    /// The loaded subscriptions; nil while loading or after a failure.
    public var subscriptions: [Product]? { state.products }
    /// The group's name, shown above the plan by the automatic style; empty when nothing loaded.
    public var subscriptionGroupDisplayName: String {
        visibleSubscription?.subscription?.groupDisplayName ?? subscriptions?.first?.subscription?.groupDisplayName ?? ""
    }
    let intent: PurchaseIntent?
    let detailAction: (() -> Void)?
    let session: RenderSession
    let standard: StandardSubscriptionOfferViewStyle.Kind

    /// Buys the visible subscription with the active offer; call it from a `Button` action.
    public func subscribe() {
        guard let intent else { return }
        session.requestPurchase(intent)
    }

    /// Runs `subscriptionOfferViewDetailAction`'s action, if one was given.
    public func displayDetails() {
        detailAction?()
    }

    /// The type-erased icon the view was given (empty when none).
    public struct Icon: PrimitiveView {
        let view: AnyView?
        /// Renders the given icon, or nothing.
        public func _render(_ context: RenderContext, _ html: HTMLWriter) { view?._render(context, html) }
    }
}

/// The built-in looks: `automatic` (a card) and `compact` (one row).
public struct StandardSubscriptionOfferViewStyle: SubscriptionOfferViewStyle, Sendable {
    /// The built-in looks by name; the name also ends the article's `sk-offer-view-` CSS class.
    public enum Kind: String, Sendable, CaseIterable { case automatic, compact }
    /// Which built-in look this is.
    public let kind: Kind
    /// The standard offer markup in this look.
    public func makeBody(configuration: Configuration) -> some View {
        StandardSubscriptionOfferBody(configuration: configuration, kind: kind)
    }
}

extension SubscriptionOfferViewStyle where Self == StandardSubscriptionOfferViewStyle {
    /// Mirrors `SubscriptionOfferViewStyle.automatic`: the group's name above the plan, offer and price.
    public static var automatic: Self { .init(kind: .automatic) }
    /// Mirrors `SubscriptionOfferViewStyle.compact`: the plan, offer and price without the group's name.
    public static var compact: Self { .init(kind: .compact) }
}

/// The buttons an offer view can show; `.detailLink` opens the details (`displayDetails()`).
public struct SubscriptionOfferViewButtonKind: Hashable, Sendable {
    let name: String
    /// Mirrors `SubscriptionOfferViewButtonKind.detailLink`: the "Details" link.
    public static let detailLink = SubscriptionOfferViewButtonKind(name: "detailLink")
}

/// An offer view style with its type erased, as the environment stores it.
public struct AnySubscriptionOfferViewStyle {
    let standardKind: StandardSubscriptionOfferViewStyle.Kind?
    let make: (SubscriptionOfferViewStyleConfiguration) -> AnyView

    /// Wraps any style; a built-in one is remembered so `SubscriptionOfferView(configuration)` keeps its look.
    public init<S: SubscriptionOfferViewStyle>(_ style: S) {
        standardKind = (style as? StandardSubscriptionOfferViewStyle)?.kind
        make = { AnyView(style.makeBody(configuration: $0)) }
    }
}

/// The offer view's settings in the environment (style, detail action, button visibility).
struct SubscriptionOfferViewSettings: EnvironmentKey {
    var style = AnySubscriptionOfferViewStyle(.automatic)
    var detailAction: (() -> Void)?
    var buttonVisibility: [SubscriptionOfferViewButtonKind: Visibility] = [:]
    static var defaultValue: SubscriptionOfferViewSettings { .init() }
}

extension View {
    /// Styles every `SubscriptionOfferView` inside this view.
    public func subscriptionOfferViewStyle(_ style: some SubscriptionOfferViewStyle) -> EnvironmentWriter<Self> {
        let erased = AnySubscriptionOfferViewStyle(style)
        return transformEnvironment { $0[SubscriptionOfferViewSettings.self].style = erased }
    }

    /// What the offer view's detail link does; nil removes it.
    public func subscriptionOfferViewDetailAction(_ action: (() -> Void)?) -> EnvironmentWriter<Self> {
        transformEnvironment { $0[SubscriptionOfferViewSettings.self].detailAction = action }
    }

    /// Shows or hides offer view buttons (`.detailLink`); automatic shows the detail link only
    /// when a detail action is set.
    public func subscriptionOfferViewButtonVisibility(_ visibility: Visibility,
                                                      for buttonKinds: SubscriptionOfferViewButtonKind...) -> EnvironmentWriter<Self> {
        transformEnvironment { environment in
            for kind in buttonKinds { environment[SubscriptionOfferViewSettings.self].buttonVisibility[kind] = visibility }
        }
    }
}
