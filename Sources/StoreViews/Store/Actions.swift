import StoreKitTypes

/// A purchase a page asked for: the product, and the hooks in effect where it was asked.
public struct PurchaseIntent {
    /// The product to buy.
    public let productID: String
    /// The offer the button showed, which the purchase applies (a win-back offer is asked for
    /// explicitly, as `Product.PurchaseOption.winBackOffer(_:)`; an intro offer the store applies).
    public let offer: Product.SubscriptionOffer?
    /// The `onInAppPurchaseStart(perform:)` actions in effect at the button, run before the purchase.
    public let onStart: ((Product) async -> Void)?
    /// The `onInAppPurchaseCompletion(perform:)` action in effect at the button, given the outcome.
    public let onCompletion: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?

    /// A purchase of `productID`, optionally with an offer, carrying the hooks to run around it.
    public init(productID: String, offer: Product.SubscriptionOffer? = nil, onStart: ((Product) async -> Void)?,
                onCompletion: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?) {
        self.productID = productID
        self.offer = offer
        self.onStart = onStart
        self.onCompletion = onCompletion
    }
}

/// What pressing a button on a page means, once the page is rendered again on the server.
public enum PageAction {
    case purchase(PurchaseIntent)
    /// A `Button`'s closure, or a sign-in action: run it, then perform what it asked for.
    case run(() -> Void)
    case restorePurchases
    case redeemCode(String)
    case dismiss
}

/// The actions a render registered, keyed by the value their `<button name=action>` posts.
public struct ActionTable {
    var closures: [String: () -> Void] = [:]
    /// Purchase buttons by form value: `purchase:<id>`, then `purchase:<id>#2`… for the same
    /// product shown again, so each appearance purchases with the hooks in effect where it is.
    var purchases: [String: PurchaseIntent] = [:]
    var appearances: [String: Int] = [:]
    /// Plan pickers by form value (`subscribe`, `subscribe#2`…): their options' intents.
    var pickers: [String: [String: PurchaseIntent]] = [:]
    var count = 0
    /// The fixed actions (`restore`, `redeem`, `dismiss`) whose buttons the page shows.
    var shownFixedActions: Set<String> = []

    /// Marks a fixed action's button as shown, so a post of it resolves.
    mutating func registerFixed(_ action: String) -> String {
        shownFixedActions.insert(action)
        return action
    }

    /// Registers a closure and returns its form value.
    mutating func register(_ action: @escaping () -> Void) -> String {
        count += 1
        let id = "a\(count)"
        closures[id] = action
        return id
    }

    /// Registers a purchase button and returns its form value.
    mutating func registerPurchase(_ intent: PurchaseIntent) -> String {
        let seen = (appearances[intent.productID] ?? 0) + 1
        appearances[intent.productID] = seen
        let id = seen == 1 ? "purchase:\(intent.productID)" : "purchase:\(intent.productID)#\(seen)"
        purchases[id] = intent
        return id
    }

    /// Registers a plan picker (its options and their hooks) and returns its submit value.
    mutating func registerPicker(_ intents: [PurchaseIntent]) -> String {
        let id = pickers.isEmpty ? "subscribe" : "subscribe#\(pickers.count + 1)"
        pickers[id] = Dictionary(intents.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
        return id
    }

    /// The action a posted form asks for; nil when the page no longer has it.
    public func resolve(action: String, selectedProduct: String?, code: String?) -> PageAction? {
        switch action {
        case "restore", "redeem", "dismiss":
            // Only a button the page shows can be pressed.
            guard shownFixedActions.contains(action) else { return nil }
            if action == "restore" { return .restorePurchases }
            if action == "dismiss" { return .dismiss }
            return code.map { .redeemCode($0) }
        default:
            if let picker = pickers[action] {
                guard let product = selectedProduct else { return nil }
                return picker[product].map { .purchase($0) }
            }
            if action.hasPrefix("subscribe") {
                // No such picker any more (the page changed): a plan shown elsewhere on it.
                guard let product = selectedProduct else { return nil }
                return (pickers.values.lazy.compactMap { $0[product] }.first ?? purchases["purchase:\(product)"]).map { .purchase($0) }
            }
            if action.hasPrefix("purchase:") {
                // A page drawn before a change may name an appearance that moved: its product's first one.
                let first = "purchase:" + (action.dropFirst("purchase:".count).split(separator: "#", maxSplits: 1).first ?? "")
                return (purchases[action] ?? purchases[first]).map { .purchase($0) }
            }
            return closures[action].map { .run($0) }
        }
    }
}
