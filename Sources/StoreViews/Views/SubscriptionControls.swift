import StoreKitTypes
import StoreShared

/// The plan controls of a subscription store: a radio group with one subscribe button, or a
/// button per plan. Radios are native, so arrow keys move the selection and screen readers
/// announce "Yearly, $49.99 per year, selected".
enum SubscriptionControls {
    static func render(_ configuration: SubscriptionStoreControlStyleConfiguration, kind: StandardSubscriptionStoreControlStyle.Kind,
                       _ context: RenderContext, _ html: HTMLWriter) {
        let options = configuration.options
        var kind = kind
        if kind == .automatic { kind = options.count > 1 ? .picker : .buttons }
        if kind == .buttons {
            html.open("div", [("class", "sk-controls sk-controls-buttons"), ("data-control-style", "buttons")])
            let described = showsDescriptions(kind, configuration.descriptionVisibility)
            for option in options {
                planButton(option, context, html, label: context.environment.subscriptionStoreButtonLabel, manyButtons: options.count > 1,
                           showsDescription: described)
            }
            html.close("div")
            return
        }
        let session = context.session
        let legendID = session.uniqueID("plans")
        html.open("form", [("method", "post"), ("action", session.actionURL), ("class", "sk-controls sk-controls-\(kind.rawValue)"),
                           ("data-control-style", kind.rawValue)])
        html.open("fieldset", [("class", "sk-plans"), ("aria-labelledby", legendID)])
        html.element("legend", [("id", legendID), ("class", "sk-plans-legend")], text: "Choose a \(configuration.groupDisplayName) plan")
        let environment = context.environment
        // The current plan is registered too: a page drawn before the purchase may still post it,
        // and the store's own refusal ("already subscribed") is the clearest answer.
        let submit = session.actions.registerPicker(options.map {
            PurchaseIntent(productID: $0.id, offer: $0.activeOffer, onStart: environment.onInAppPurchaseStart,
                           onCompletion: environment.onInAppPurchaseCompletion)
        })
        let selectable = options.filter { !$0.isCurrent }
        let selected = selectable.first { $0.id == configuration.autoRenewPreference?.id && !$0.isCurrent } ?? selectable.first
        let described = showsDescriptions(kind, configuration.descriptionVisibility)
        for option in options {
            planOption(option, selected: option.id == selected?.id, showsDescription: described, context, html)
        }
        html.close("fieldset")
        if let selected {
            let label = context.environment.subscriptionStoreButtonLabel
            let text = label.text(for: selected, manyButtons: false)
            // The label names the plan chosen when the page was drawn; the script updates it (and
            // the caption) as the selection changes.
            caption(text, html)
            html.open("button", [("type", "submit"), ("name", "action"), ("value", submit), ("class", "sk-button sk-subscribe"),
                                 ("aria-label", text.spoken), ("data-label", labelKey(label))])
            for line in text.lines { html.element("span", [("class", "sk-label-line")], text: line) }
            html.close("button")
        }
        html.close("form")
    }

    static func labelKey(_ label: SubscriptionStoreButtonLabel) -> String {
        "\(label.layout)-\(label.parts.rawValue)"
    }

    /// Whether the built-in styles show each plan's description: `productDescription(.hidden)`
    /// hides it, `.visible` shows it, and automatically every style shows it but the compact
    /// picker (Apple: "a compact control style may never show product descriptions").
    static func showsDescriptions(_ kind: StandardSubscriptionStoreControlStyle.Kind, _ visibility: Visibility) -> Bool {
        switch visibility {
        case .hidden: false
        case .visible: true
        case .automatic: kind != .compactPicker
        }
    }

    /// The caption above a subscribe button: the price when the label doesn't say it. Hidden from
    /// assistive technology, as the button's name already says the price in words.
    static func caption(_ text: SubscribeButtonText, _ html: HTMLWriter) {
        guard let caption = text.caption else { return }
        html.element("p", [("class", "sk-button-caption"), ("aria-hidden", "true")], text: caption)
    }

    static func planOption(_ option: SubscriptionStoreControlStyleConfiguration.Option, selected: Bool, showsDescription: Bool,
                           _ context: RenderContext, _ html: HTMLWriter) {
        let product = option.subscription
        let id = context.session.uniqueID("plan")
        let environment = context.environment
        let background = [environment.subscriptionStorePickerItemBackground.map { "background:\($0.cssBackground)" },
                          environment.subscriptionStorePickerItemShape.map { "border-radius:\($0)" }]
            .compactMap { $0 }.joined(separator: ";")
        let button = context.environment.subscriptionStoreButtonLabel.text(for: option, manyButtons: false)
        // The description is the radio's description, not part of its name: the name stays "plan, price".
        let descriptionID = showsDescription && !product.description.isEmpty ? context.session.uniqueID("plan-description") : nil
        html.open("label", [("class", "sk-plan" + (option.isCurrent ? " sk-plan-current" : "")), ("for", id), ("style", background.isEmpty ? nil : background),
                            ("data-product-id", product.id)])
        html.open("input", [("type", "radio"), ("name", "product"), ("value", product.id), ("id", id), ("required", ""),
                            ("checked", selected ? "" : nil), ("disabled", option.isCurrent ? "" : nil), ("aria-describedby", descriptionID),
                            ("data-button-lines", button.lines.joined(separator: "\n")), ("data-button-spoken", button.spoken),
                            ("data-button-caption", button.caption)])
        controlIcon(product, context, html)
        html.open("span", [("class", "sk-plan-text")])
        html.element("span", [("class", "sk-plan-name"), ("dir", "auto")], text: product.displayName)
        if let descriptionID {
            html.element("span", [("class", "sk-plan-description"), ("id", descriptionID), ("dir", "auto"), ("aria-hidden", "true")],
                         text: product.description)
        }
        priceLines(option, html)
        if option.isCurrent { html.element("span", [("class", "sk-badge sk-current-badge")], text: "Current Plan") }
        html.close("span")
        html.close("label")
    }

    /// The billed amount first and largest; the per-month equivalent and the offer after it, smaller.
    static func priceLines(_ option: SubscriptionStoreControlStyleConfiguration.Option, _ html: HTMLWriter) {
        let product = option.subscription
        guard let info = product.subscription else { return }
        html.speakable("span", class: "sk-plan-price", visual: product.displayPrice + PriceText.shortPeriod(info.subscriptionPeriod),
                       spoken: PriceText.spoken(product))
        monthlyEquivalent(product, tag: "span", html)
        if let offer = option.activeOffer {
            // Offers other than the intro offer say which they are (`winBack`, `promotional`).
            html.element("span", [("class", "sk-plan-offer"), ("data-offer-type", offer.type == .introductory ? nil : offer.type.rawValue)],
                         text: PriceText.offer(offer))
        }
    }

    static func planButton(_ option: SubscriptionStoreControlStyleConfiguration.Option, _ context: RenderContext, _ html: HTMLWriter,
                           label: SubscriptionStoreButtonLabel, manyButtons: Bool = true, showsDescription: Bool = false) {
        let product = option.subscription
        html.open("div", [("class", "sk-plan-button" + (option.isCurrent ? " sk-plan-current" : "")), ("data-product-id", product.id)])
        controlIcon(product, context, html)
        if option.isCurrent {
            html.open("p", [("class", "sk-owned")])
            html.text("✓ ")
            html.element("bdi", text: product.displayName)
            html.text(" — Current Plan")
            html.close("p")
            planDescription(product, showsDescription, html)
            html.close("div")
            return
        }
        let intent = PurchaseIntent(productID: product.id, offer: option.activeOffer, onStart: context.environment.onInAppPurchaseStart,
                                    onCompletion: context.environment.onInAppPurchaseCompletion)
        let action = context.session.actions.registerPurchase(intent)
        let text = label.text(for: option, manyButtons: manyButtons)
        caption(text, html)
        ActionForm(url: context.session.actionURL, action: action, className: "sk-button sk-subscribe", label: text.spoken)
            .render(context, html) {
                for line in text.lines { html.element("span", [("class", "sk-label-line")], text: line) }
            }
        monthlyEquivalent(product, tag: "p", html)
        planDescription(product, showsDescription, html)
        html.close("div")
    }

    /// The plan's description under its button in the buttons style, secondary to the price.
    static func planDescription(_ product: Product, _ shown: Bool, _ html: HTMLWriter) {
        guard shown, !product.description.isEmpty else { return }
        html.element("p", [("class", "sk-plan-description"), ("dir", "auto")], text: product.description)
    }

    /// "$4.17/mo" beside a plan billed less often than monthly, secondary to the billed amount.
    static func monthlyEquivalent(_ product: Product, tag: String, _ html: HTMLWriter) {
        guard let perMonth = PriceText.monthlyEquivalent(product) else { return }
        html.speakable(tag, class: "sk-plan-equivalent", visual: "\(perMonth)/mo", spoken: "\(perMonth) per month")
    }

    /// `subscriptionStoreControlIcon`'s view for a plan, decorative.
    static func controlIcon(_ product: Product, _ context: RenderContext, _ html: HTMLWriter) {
        guard let icon = context.environment.subscriptionStoreControlIcon, let info = product.subscription else { return }
        html.open("span", [("class", "sk-plan-icon"), ("aria-hidden", "true")])
        icon(product, info)._render(context, html)
        html.close("span")
    }
}
