import StoreShared
/// The accessory buttons of a store, each shown per `storeButton(_:for:)` or Apple's automatic rule.
struct StoreAccessoryButtons {
    let kinds: [StoreButtonKind]
    let context: RenderContext

    /// Apple's automatic visibility of each kind.
    func isVisible(_ kind: StoreButtonKind) -> Bool {
        let environment = context.environment
        switch environment.visibility(of: kind) {
        case .visible: return kind != .signIn || environment.subscriptionStoreSignInAction != nil
        case .hidden: return false
        case .automatic:
            switch kind {
            case .cancellation: return environment.isPresented
            case .signIn: return environment.subscriptionStoreSignInAction != nil
            // "Policy buttons are hidden by default" (Meet StoreKit for SwiftUI, WWDC23).
            default: return false  // restorePurchases, redeemCode, policies
            }
        }
    }

    func render(_ html: HTMLWriter, placement: String) {
        let shown = kinds.filter(isVisible)
        guard !shown.isEmpty else { return }
        html.open("div", [("class", "sk-store-buttons sk-store-buttons-\(placement)")])
        for kind in shown { button(kind, html) }
        html.close("div")
    }

    func button(_ kind: StoreButtonKind, _ html: HTMLWriter) {
        let session = context.session
        switch kind {
        case .cancellation:
            ActionForm(url: session.actionURL, action: session.actions.registerFixed("dismiss"), className: "sk-store-button sk-close", label: "Close")
                .render(context, html) { html.element("span", [("aria-hidden", "true")], text: "✕") }
        case .restorePurchases:
            ActionForm(url: session.actionURL, action: session.actions.registerFixed("restore"), className: "sk-store-button sk-restore")
                .render(context, html) { html.text("Restore Purchases") }
        case .signIn:
            guard let action = context.environment.subscriptionStoreSignInAction else { return }
            let id = session.actions.register(action)
            ActionForm(url: session.actionURL, action: id, className: "sk-store-button sk-sign-in")
                .render(context, html) { html.text("Sign In") }
        case .redeemCode:
            let field = session.uniqueID("code")
            _ = session.actions.registerFixed("redeem")
            html.open("form", [("method", "post"), ("action", session.actionURL), ("class", "sk-action-form sk-redeem")])
            html.element("label", [("for", field), ("class", "sk-redeem-label")], text: "Offer code")
            html.open("input", [("id", field), ("name", "code"), ("autocomplete", "off"), ("required", ""),
                                ("maxlength", "64"), ("spellcheck", "false")])
            html.element("button", [("type", "submit"), ("name", "action"), ("value", "redeem"), ("class", "sk-store-button sk-redeem-button")],
                         text: "Redeem Code")
            html.close("form")
        case .policies:
            let terms = context.environment.policyDestinations[.termsOfService] ?? context.store.termsOfServiceURL
            let privacy = context.environment.policyDestinations[.privacyPolicy] ?? context.store.privacyPolicyURL
            guard terms != nil || privacy != nil else { return }
            let style = context.environment.policyForegroundStyle.map { "color:\($0.cssColor)" }
            html.open("nav", [("class", "sk-policies"), ("aria-label", "Policies"), ("style", style)])
            if let terms { html.element("a", [("href", Link<Text>.safe(terms)), ("class", "sk-policy-terms")], text: "Terms of Service") }
            if let privacy { html.element("a", [("href", Link<Text>.safe(privacy)), ("class", "sk-policy-privacy")], text: "Privacy Policy") }
            html.close("nav")
        default:
            break
        }
    }
}

extension View {
    /// Shows or hides accessory buttons of the stores inside this view.
    public func storeButton(_ visibility: Visibility, for kinds: StoreButtonKind...) -> EnvironmentWriter<Self> {
        transformEnvironment { environment in
            for kind in kinds { environment.storeButtonVisibility[kind] = visibility }
        }
    }

    /// The sign-in button's action; nil removes it (and then no store shows a sign-in button).
    public func subscriptionStoreSignInAction(_ action: (() -> Void)?) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreSignInAction = action }
    }

    /// Points a policy link of the stores inside this view at `url`, instead of the catalog's.
    public func subscriptionStorePolicyDestination(url: String, for kind: SubscriptionStorePolicyKind) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.policyDestinations[kind] = url }
    }

    /// Colors the policy links of the stores inside this view.
    public func subscriptionStorePolicyForegroundStyle(_ style: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(style)
        return transformEnvironment { $0.policyForegroundStyle = erased }
    }

    /// Marks the store as presented in a sheet, which makes the automatic Close button appear.
    public func presented(_ isPresented: Bool = true) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.isPresented = isPresented }
    }
}
