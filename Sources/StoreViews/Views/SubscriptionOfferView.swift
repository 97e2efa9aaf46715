import StoreKitTypes
import StoreShared

/// iOS 26's `SubscriptionOfferView`: one subscription plan merchandised with the offer the
/// customer is eligible for (win-back, intro, or `preferredSubscriptionOffer`'s choice) and a
/// subscribe button that applies it. By group, the plan shown is the one in `visibleRelationship`
/// to the customer's current plan. https://developer.apple.com/documentation/storekit/subscriptionofferview
public struct SubscriptionOfferView<Icon: View, PlaceholderIcon: View>: PrimitiveView {
    enum Source {
        case group(String, Product.SubscriptionRelationship)
        case id(Product.ID)
        case product(Product)
        case configuration(SubscriptionOfferViewStyleConfiguration)
    }
    let source: Source
    let prefersPromotionalIcon: Bool
    let icon: Icon?
    let placeholderIcon: PlaceholderIcon?
    /// The icon drawn from the promotional image's loading phase (the `ProductIconPhase` forms).
    let phaseIcon: ((ProductIconPhase) -> Icon)?
    /// `useAppIcon: true`: the app's icon (`AppIconMark`).
    let useAppIcon: Bool

    init(source: Source, prefersPromotionalIcon: Bool = false, icon: Icon?, placeholderIcon: PlaceholderIcon?,
         phaseIcon: ((ProductIconPhase) -> Icon)? = nil, useAppIcon: Bool = false) {
        self.source = source
        self.prefersPromotionalIcon = prefersPromotionalIcon
        self.icon = icon
        self.placeholderIcon = placeholderIcon
        self.phaseIcon = phaseIcon
        self.useAppIcon = useAppIcon
    }

    /// Draws `icon` from the promotional image's phase, `placeholderIcon` while the product loads.
    public init(id subscriptionID: Product.ID, @ViewBuilder icon: @escaping (ProductIconPhase) -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .id(subscriptionID), icon: nil, placeholderIcon: placeholderIcon(), phaseIcon: icon)
    }

    /// The plan in `visibleRelationship` to the customer's current one, with your icon and placeholder.
    public init(groupID: String, visibleRelationship: Product.SubscriptionRelationship, @ViewBuilder icon: () -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .group(groupID, visibleRelationship), icon: icon(), placeholderIcon: placeholderIcon())
    }

    /// Loads the plan by ID, with your icon and your placeholder while it loads.
    public init(id subscriptionID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon,
                @ViewBuilder placeholderIcon: () -> PlaceholderIcon) {
        self.init(source: .id(subscriptionID), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(), placeholderIcon: placeholderIcon())
    }

    /// Draws the plan through the offer view style in the environment; inside a custom style, the standard look.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let settings = context.environment[SubscriptionOfferViewSettings.self]
        if case .configuration(let configuration) = source {
            // Inside a custom style: the standard look, never the custom style again.
            StandardSubscriptionOfferBody(configuration: configuration, kind: settings.style.standardKind ?? configuration.standard)
                ._render(context, html)
            return
        }
        settings.style.make(makeConfiguration(context, settings))._render(context, html)
    }

    func makeConfiguration(_ context: RenderContext, _ settings: SubscriptionOfferViewSettings) -> SubscriptionOfferViewStyleConfiguration {
        let store = context.store
        let loading = context.session.phase == .loading
        var state: Product.CollectionTaskState
        var visible: Product?
        var group: String?
        switch source {
        case .group(let id, let relationship):
            group = id
            state = loading ? .loading : store.productsFailure.map { .failure($0) }
                ?? .success(Self.plans(in: id, store), unavailable: [])
            visible = state.products.flatMap { Self.visible($0, relationship: relationship, group: id, store) }
        case .id(let id):
            state = loading ? .loading : store.collectionState(for: [id])
            visible = state.products?.first
        case .product(let product):
            state = .success([product], unavailable: [])
            visible = product
        case .configuration(let configuration):
            return configuration
        }
        group = group ?? visible?.subscription?.subscriptionGroupID
        let offer = visible.flatMap { ActiveOffer.choose(for: $0, context) }
        let environment = context.environment
        let intent = visible.map {
            PurchaseIntent(productID: $0.id, offer: offer, onStart: environment.onInAppPurchaseStart,
                           onCompletion: environment.onInAppPurchaseCompletion)
        }
        let shownIcon: AnyView?
        if loading {
            shownIcon = placeholderIcon.map { AnyView($0) }
        } else if let phaseIcon {
            // A catalog has no promotional images: the phase after loading is `.unavailable`.
            shownIcon = AnyView(phaseIcon(.unavailable))
        } else if let icon {
            shownIcon = AnyView(icon)
        } else if useAppIcon {
            shownIcon = AnyView(AppIconMark(name: visible?.subscription?.groupDisplayName ?? visible?.displayName ?? ""))
        } else {
            // The catalog carries no promotional images; StoreKit then keeps the placeholder.
            shownIcon = prefersPromotionalIcon ? AnyView(AutomaticProductPlaceholderIcon()) : nil
        }
        return SubscriptionOfferViewStyleConfiguration(
            activeOffer: offer, icon: .init(view: shownIcon), state: state,
            subscriptionStatus: group.flatMap { store.subscriptionStatuses[$0] } ?? [], visibleSubscription: visible,
            intent: intent, detailAction: settings.detailAction, session: context.session, standard: settings.style.standardKind ?? .automatic)
    }

    /// The group's plans, highest level of service first (as `SubscriptionStoreView(groupID:)`).
    static func plans(in group: String, _ store: StoreSnapshot) -> [Product] {
        store.products.enumerated()
            .filter { $0.element.subscription?.subscriptionGroupID == group }
            .sorted { ($0.element.subscription!.groupLevel, $0.offset) < ($1.element.subscription!.groupLevel, $1.offset) }
            .map(\.element)
    }

    /// The plan in `relationship` to the customer's active plan: the nearest level up for
    /// `.upgrade`, down for `.downgrade`, another plan of the same level for `.crossgrade`, the
    /// plan itself for `.current`. Someone not subscribed is shown the group's top plan.
    static func visible(_ plans: [Product], relationship: Product.SubscriptionRelationship, group: String, _ store: StoreSnapshot) -> Product? {
        guard let status = store.activeStatus(group: group), status.state.isActive,
              let current = plans.first(where: { $0.id == status.transaction.unsafePayloadValue.productID }),
              let currentLevel = current.subscription?.groupLevel else { return plans.first }
        func level(_ product: Product) -> Int { product.subscription?.groupLevel ?? 0 }
        if relationship.contains(.upgrade), let up = plans.last(where: { level($0) < currentLevel }) { return up }
        if relationship.contains(.crossgrade), let across = plans.first(where: { level($0) == currentLevel && $0.id != current.id }) { return across }
        if relationship.contains(.downgrade), let down = plans.first(where: { level($0) > currentLevel }) { return down }
        return relationship.contains(.current) ? current : nil
    }
}

extension SubscriptionOfferView where Icon == EmptyView, PlaceholderIcon == EmptyView {
    /// The plan in `visibleRelationship` to the customer's current one, without an icon.
    public init(groupID: String, visibleRelationship: Product.SubscriptionRelationship) {
        self.init(source: .group(groupID, visibleRelationship), icon: nil, placeholderIcon: nil)
    }
    /// Loads the plan by ID, without an icon (the placeholder with `prefersPromotionalIcon`).
    public init(id subscriptionID: Product.ID, prefersPromotionalIcon: Bool = false) {
        self.init(source: .id(subscriptionID), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
    /// Apple's default for a product is `prefersPromotionalIcon: true` (unlike the ID form).
    public init(_ subscription: Product, prefersPromotionalIcon: Bool = true) {
        self.init(source: .product(subscription), prefersPromotionalIcon: prefersPromotionalIcon, icon: nil, placeholderIcon: nil)
    }
}

extension SubscriptionOfferView where Icon == EmptyView, PlaceholderIcon == EmptyView {
    /// Shows the app's icon beside the offer when `useAppIcon` is true (drawn as `AppIconMark`:
    /// a catalog has no icon artwork).
    public init(groupID: String, visibleRelationship: Product.SubscriptionRelationship, useAppIcon: Bool) {
        self.init(source: .group(groupID, visibleRelationship), icon: nil, placeholderIcon: nil, useAppIcon: useAppIcon)
    }
}

extension SubscriptionOfferView where PlaceholderIcon == EmptyView {
    /// A loaded product with your icon (Apple's default here: `prefersPromotionalIcon: false`).
    public init(_ subscription: Product, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .product(subscription), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(), placeholderIcon: nil)
    }
    /// A loaded product, its icon drawn from the promotional image's phase.
    public init(_ subscription: Product, @ViewBuilder icon: @escaping (ProductIconPhase) -> Icon) {
        self.init(source: .product(subscription), icon: nil, placeholderIcon: nil, phaseIcon: icon)
    }
}

extension SubscriptionOfferView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    /// Your icon, StoreKit's grey placeholder while the product loads.
    public init(id subscriptionID: Product.ID, prefersPromotionalIcon: Bool = false, @ViewBuilder icon: () -> Icon) {
        self.init(source: .id(subscriptionID), prefersPromotionalIcon: prefersPromotionalIcon, icon: icon(),
                  placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

extension SubscriptionOfferView where Icon == SubscriptionOfferViewStyleConfiguration.Icon,
                                      PlaceholderIcon == SubscriptionOfferViewStyleConfiguration.Icon {
    /// The standard look for a configuration, for custom styles that wrap it.
    public init(_ configuration: SubscriptionOfferViewStyleConfiguration) {
        self.init(source: .configuration(configuration), icon: nil, placeholderIcon: nil)
    }
}

extension SubscriptionOfferView where PlaceholderIcon == AutomaticProductPlaceholderIcon {
    /// The plan in `visibleRelationship` to the customer's current one, with your icon and StoreKit's
    /// grey square while it loads.
    public init(groupID: String, visibleRelationship: Product.SubscriptionRelationship, @ViewBuilder icon: () -> Icon) {
        self.init(source: .group(groupID, visibleRelationship), icon: icon(), placeholderIcon: AutomaticProductPlaceholderIcon())
    }
}

/// The markup of the built-in offer view styles: an `<article>` named by the plan, the offer's
/// terms before the plan's price, a subscribe button, and the detail link when it has an action.
struct StandardSubscriptionOfferBody: PrimitiveView {
    let configuration: SubscriptionOfferViewStyleConfiguration
    let kind: StandardSubscriptionOfferViewStyle.Kind

    func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let nameID = context.session.uniqueID("offer")
        let product = configuration.visibleSubscription
        html.open("article", [("class", "sk-offer-view sk-offer-view-\(kind.rawValue)"), ("data-product-id", product?.id),
                              ("data-offer-type", configuration.activeOffer?.type.rawValue), ("aria-labelledby", nameID)])
        if configuration.icon.view != nil {
            html.open("div", [("class", "sk-product-icon" + (context.environment.productIconBorder ? " sk-icon-border" : ""))])
            configuration.icon._render(context.with { $0.isProductIcon = true }, html)
            html.close("div")
        }
        html.open("div", [("class", "sk-product-text")])
        guard let product, let info = product.subscription else {
            let text: String = switch configuration.state {
            case .loading: "Loading…"
            case .failure(let error): error.message
            default: "No subscription to offer"
            }
            html.element("h3", [("id", nameID), ("class", "sk-product-name")], text: text)
            html.close("div")
            html.close("article")
            return
        }
        if kind == .automatic {
            html.element("p", [("class", "sk-offer-group"), ("dir", "auto")], text: configuration.subscriptionGroupDisplayName)
        }
        html.element("h3", [("id", nameID), ("class", "sk-product-name"), ("dir", "auto")], text: product.displayName)
        if let offer = configuration.activeOffer {
            html.element("p", [("class", "sk-plan-offer")], text: PriceText.offer(offer))
        }
        html.speakable("p", class: "sk-plan-price", visual: (configuration.activeOffer == nil ? "" : "then ") + product.displayPrice
                       + PriceText.shortPeriod(info.subscriptionPeriod), spoken: PriceText.spoken(product))
        html.close("div")
        if let intent = configuration.intent {
            let action = context.session.actions.registerPurchase(intent)
            let verb = configuration.activeOffer?.paymentMode == .freeTrial ? "Try It Free"
                : configuration.activeOffer == nil ? "Subscribe" : "Start Offer"
            ActionForm(url: context.session.actionURL, action: action, className: "sk-button sk-subscribe",
                       label: "\(verb), \(product.displayName)").render(context, html) { html.text(verb) }
        }
        let visibility = context.environment[SubscriptionOfferViewSettings.self].buttonVisibility[.detailLink] ?? .automatic
        if let details = configuration.detailAction, visibility != .hidden {
            let action = context.session.actions.register(details)
            ActionForm(url: context.session.actionURL, action: action, className: "sk-link sk-offer-details")
                .render(context, html) { html.text("Details") }
        }
        html.close("article")
    }
}
