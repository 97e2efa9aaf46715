import StoreKitTypes
import StoreShared

/// The markup of the built-in product view styles. One `<article>` per product, named by its
/// heading; the buy button says what it buys and for how much.
struct StandardProductBody: PrimitiveView {
    let configuration: ProductViewStyleConfiguration
    let kind: StandardProductViewStyle.Kind

    func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let state = configuration.state
        let nameID = context.session.uniqueID("product")
        let stateName: String = switch state {
        case .loading: "loading"
        case .success: "success"
        case .unavailable: "unavailable"
        case .failure: "failure"
        }
        html.open("article", [
            ("class", "sk-product sk-product-\(kind.rawValue)"), ("data-product-id", configuration.product?.id),
            ("data-state", stateName), ("aria-labelledby", nameID), ("aria-busy", stateName == "loading" ? "true" : nil),
            ("data-owned", configuration.hasCurrentEntitlement ? "true" : nil),
        ])
        if configuration.icon.view != nil {
            html.open("div", [("class", "sk-product-icon" + (context.environment.productIconBorder ? " sk-icon-border" : ""))])
            configuration.icon._render(context.with { $0.isProductIcon = true }, html)
            html.close("div")
        }
        html.open("div", [("class", "sk-product-text")])
        switch state {
        case .loading:
            html.element("h3", [("id", nameID), ("class", "sk-product-name sk-skeleton")], text: "Loading…")
        case .unavailable:
            html.element("h3", [("id", nameID), ("class", "sk-product-name")], text: "Unavailable")
            html.element("p", [("class", "sk-product-description")], text: "This item isn’t available in your country or region.")
        case .failure(let error):
            html.element("h3", [("id", nameID), ("class", "sk-product-name")], text: "Couldn’t load")
            html.element("p", [("class", "sk-product-description"), ("role", "alert")], text: error.message)
        case .success(let product):
            html.element("h3", [("id", nameID), ("class", "sk-product-name"), ("dir", "auto")], text: product.displayName)
            if showsDescription, !product.description.isEmpty {
                html.element("p", [("class", "sk-product-description"), ("dir", "auto")], text: product.description)
            }
            if let info = product.subscription {
                html.speakable("p", class: "sk-product-period", visual: product.displayPrice + PriceText.shortPeriod(info.subscriptionPeriod),
                               spoken: PriceText.spoken(product))
            }
        }
        html.close("div")
        if case .success(let product) = state { buyButton(product, context, html) }
        if case .failure = state {
            html.element("a", [("class", "sk-button sk-retry"), ("href", "")], text: "Try Again")
        }
        html.close("article")
    }

    var showsDescription: Bool {
        switch configuration.descriptionVisibility {
        case .visible: true
        case .hidden: false
        case .automatic: kind != .compact
        }
    }

    func buyButton(_ product: Product, _ context: RenderContext, _ html: HTMLWriter) {
        if configuration.hasCurrentEntitlement && product.type != .consumable {
            html.element("p", [("class", "sk-owned")], text: product.type == .autoRenewable ? "✓ Subscribed" : "✓ Purchased")
            return
        }
        guard let intent = configuration.intent else { return }
        let action = context.session.actions.registerPurchase(intent)
        ActionForm(url: context.session.actionURL, action: action, className: "sk-button sk-buy",
                   label: "Buy \(product.displayName) for \(PriceText.spoken(product))")
            .render(context, html) { html.text(product.displayPrice) }
    }
}
