/// A purchase a page asked for: the product, and the hooks in effect where it was asked.
public struct PurchaseIntent {
    public let productID: String
    public let onStart: ((Product) async -> Void)?
    public let onCompletion: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?
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
    var purchases: [String: PurchaseIntent] = [:]
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

    /// Registers a purchase button: `purchase:<productID>`. The first registration of a product
    /// wins, so the same product shown twice purchases with the hooks of its first appearance.
    mutating func registerPurchase(_ intent: PurchaseIntent) -> String {
        let id = "purchase:\(intent.productID)"
        if purchases[intent.productID] == nil { purchases[intent.productID] = intent }
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
        case "subscribe":
            guard let product = selectedProduct else { return nil }
            return purchases[product].map { .purchase($0) }
        default:
            if action.hasPrefix("purchase:") {
                return purchases[String(action.dropFirst("purchase:".count))].map { .purchase($0) }
            }
            return closures[action].map { .run($0) }
        }
    }
}
