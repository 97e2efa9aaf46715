import StoreKitTypes
import StoreShared

/// A paywall for one subscription group: marketing content above the plans, then the plan
/// controls, the accessory buttons and the policy links. With a group ID the plans are ordered by
/// level (highest service first); a subscriber sees only the relationships asked for.
public struct SubscriptionStoreView<Content: View>: PrimitiveView {
    enum Source { case group(String), ids([String]), products([Product]) }
    let source: Source
    let visibleRelationships: Product.SubscriptionRelationship
    let marketingContent: Content?

    init(source: Source, visibleRelationships: Product.SubscriptionRelationship, marketingContent: Content?) {
        self.source = source
        self.visibleRelationships = visibleRelationships
        self.marketingContent = marketingContent
    }

    /// Mirrors `SubscriptionStoreView(groupID:visibleRelationships:marketingContent:)`: a group's plans by level.
    public init(groupID: String, visibleRelationships: Product.SubscriptionRelationship = .all,
                @ViewBuilder marketingContent: () -> Content) {
        self.init(source: .group(groupID), visibleRelationships: visibleRelationships, marketingContent: marketingContent())
    }

    /// Mirrors `SubscriptionStoreView(productIDs:marketingContent:)`: the listed plans, in the order given.
    public init(productIDs: some Collection<String>, @ViewBuilder marketingContent: () -> Content) {
        self.init(source: .ids(Array(productIDs)), visibleRelationships: .all, marketingContent: marketingContent())
    }

    /// Mirrors `SubscriptionStoreView(subscriptions:marketingContent:)`: plans already loaded.
    public init(subscriptions: some Collection<Product>, @ViewBuilder marketingContent: () -> Content) {
        self.init(source: .products(Array(subscriptions)), visibleRelationships: .all, marketingContent: marketingContent())
    }

    /// The group's plans in display order, before relationships filter them.
    func allOptions(_ store: StoreSnapshot) -> [Product] {
        switch source {
        case .group(let group):
            return store.products.enumerated()
                .filter { $0.element.subscription?.subscriptionGroupID == group }
                .sorted { ($0.element.subscription!.groupLevel, $0.offset) < ($1.element.subscription!.groupLevel, $1.offset) }
                .map(\.element)
        case .ids(let ids):
            return ids.compactMap { store.product($0) }.filter { $0.subscription != nil }
        case .products(let products):
            return products.filter { $0.subscription != nil }
        }
    }

    func configuration(_ context: RenderContext) -> SubscriptionStoreControlStyleConfiguration {
        let store = context.store
        let all = allOptions(store)
        let group = all.first?.subscription?.subscriptionGroupID ?? { if case .group(let id) = source { return id }; return "" }()
        let status = store.activeStatus(group: group)
        let active = status.flatMap { $0.state.isActive ? $0 : nil }
        let currentProduct = active.flatMap { store.product($0.transaction.unsafePayloadValue.productID) }
        let currentLevel = currentProduct?.subscription?.groupLevel
        let options = all.compactMap { product -> SubscriptionStoreControlStyleConfiguration.Option? in
            var relationship: Product.SubscriptionRelationship?
            if let current = currentProduct, let level = product.subscription?.groupLevel, let currentLevel {
                relationship = product.id == current.id ? .current
                    : level < currentLevel ? .upgrade : level > currentLevel ? .downgrade : .crossgrade
                guard visibleRelationships.contains(relationship!) else { return nil }
            }
            return .init(subscription: product, relationship: relationship, isCurrent: relationship == .current,
                         activeOffer: offer(for: product, context))
        }
        let preference = active?.renewalInfo.unsafePayloadValue.autoRenewPreference.flatMap { store.product($0) }
        return SubscriptionStoreControlStyleConfiguration(
            options: options, allOptions: all, groupDisplayName: all.first?.subscription?.groupDisplayName ?? "Subscription",
            autoRenewPreference: preference, descriptionVisibility: context.environment.productDescriptionVisibility)
    }

    func offer(for product: Product, _ context: RenderContext) -> Product.SubscriptionOffer? {
        ActiveOffer.choose(for: product, context)
    }

    /// A `section`: the marketing content in a `header`, then the plan controls, disclosure and buttons.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let session = context.session
        let loaded = session.phase == .loading ? nil : configuration(context)
        // Marketing content first, into its own buffer: it may ask for container backgrounds.
        let collector = ContainerBackgrounds()
        session.collectors.append(collector)
        let marketing = HTMLWriter(capacity: 2048)
        if let marketingContent {
            marketingContent._render(context, marketing)
        } else {
            AutomaticSubscriptionStoreMarketingContent(configuration: loaded)
                ._render(context, marketing)
        }
        session.collectors.removeLast()

        let full = collector.css[.subscriptionStoreFullHeight] ?? collector.css[.subscriptionStore]
        let fullView = collector.views[.subscriptionStoreFullHeight] ?? collector.views[.subscriptionStore]
        var groupID: String?
        if case .group(let id) = source { groupID = id }
        html.open("section", [("class", "sk-subscription-store" + (full != nil || fullView != nil ? " sk-has-full-background" : "")),
                              ("data-group-id", groupID), ("style", full.map { "background:\($0)" }),
                              ("aria-label", "Subscription store")])
        if let fullView {
            html.open("div", [("class", "sk-full-background"), ("aria-hidden", "true")])
            fullView._render(context, html)
            html.close("div")
        }
        StoreAccessoryButtons(kinds: [.cancellation], context: context).render(html, placement: "top")
        let header = collector.css[.subscriptionStoreHeader]
        html.open("header", [("class", "sk-marketing"), ("style", header.map { "background:\($0)" })])
        if let headerView = collector.views[.subscriptionStoreHeader] {
            html.open("div", [("class", "sk-header-background"), ("aria-hidden", "true")])
            headerView._render(context, html)
            html.close("div")
        }
        html.append(marketing)
        html.close("header")

        let controlBackground = context.environment.subscriptionStoreControlBackground
        let controlsStyle = (controlBackground?.style ?? (controlBackground == nil ? context.environment.backgroundStyle : nil))
            .map { "background:\($0.cssBackground)" }
        html.open("div", [("class", "sk-store-controls" + (controlBackground?.cssClass.map { " " + $0 } ?? "")), ("style", controlsStyle)])
        // Made visible, the policy buttons sit above the subscription controls, as on iOS and Mac.
        StoreAccessoryButtons(kinds: [.policies], context: context).render(html, placement: "policies")
        if loaded == nil {
            ProgressView("Loading subscriptions…")._render(context, html)
        } else if let failure = context.store.productsFailure {
            html.element("p", [("class", "sk-error"), ("role", "alert")], text: failure.message)
        } else if let configuration = loaded {
            if configuration.options.isEmpty {
                html.element("p", [("class", "sk-empty")], text: "No subscription options are available.")
            } else if let custom = context.environment.subscriptionStoreControlStyle.make {
                custom(configuration)._render(context, html)
            } else {
                SubscriptionControls.render(configuration, kind: context.environment.subscriptionStoreControlStyle.standardKind ?? .automatic,
                                            context, html)
            }
            html.element("p", [("class", "sk-disclosure")],
                         text: "Subscriptions renew automatically at the price shown until canceled. Cancel anytime in your account settings at least a day before each renewal date.")
        }
        StoreAccessoryButtons(kinds: [.signIn, .restorePurchases, .redeemCode], context: context).render(html, placement: "bottom")
        html.close("div")
        html.close("section")
    }
}

extension SubscriptionStoreView where Content == AutomaticSubscriptionStoreMarketingContent {
    /// A group's plans under StoreKit's automatic marketing content.
    public init(groupID: String, visibleRelationships: Product.SubscriptionRelationship = .all) {
        self.init(source: .group(groupID), visibleRelationships: visibleRelationships, marketingContent: nil)
    }
    /// The listed plans under StoreKit's automatic marketing content.
    public init(productIDs: some Collection<String>) {
        self.init(source: .ids(Array(productIDs)), visibleRelationships: .all, marketingContent: nil)
    }
    /// Already loaded plans under StoreKit's automatic marketing content.
    public init(subscriptions: some Collection<Product>) {
        self.init(source: .products(Array(subscriptions)), visibleRelationships: .all, marketingContent: nil)
    }
}

/// The marketing content StoreKit makes from the group itself: its name and what the plans say.
public struct AutomaticSubscriptionStoreMarketingContent: PrimitiveView {
    let configuration: SubscriptionStoreControlStyleConfiguration?
    /// The group's name as a heading, and the first plan description that is not empty.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-automatic-marketing")])
        html.element("h2", [("class", "sk-marketing-title")], text: configuration?.groupDisplayName ?? "Subscription")
        if let description = configuration?.allOptions.first(where: { !$0.description.isEmpty })?.description {
            html.element("p", [("class", "sk-marketing-subtitle")], text: description)
        }
        html.close("div")
    }
}

extension View {
    /// Chooses the offer a subscription store shows and applies, among those the customer is
    /// eligible for (win-back offers best first, then the intro offer); returning nil falls back
    /// to the intro offer, as Apple documents.
    public func preferredSubscriptionOffer(
        _ offer: @escaping (Product, Product.SubscriptionInfo, [Product.SubscriptionOffer]) -> Product.SubscriptionOffer?
    ) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.preferredSubscriptionOffer = offer }
    }
}
