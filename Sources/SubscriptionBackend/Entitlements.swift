/// Which named entitlement a product grants: the configured map first; otherwise one per
/// subscription group (its ID) and one per non-consumable (its product ID). Consumables grant none.
enum Entitlements {
    static func name(productId: String, groupId: String?, type: String?, app: AppConfiguration) -> String {
        if let configured = app.entitlements[productId] { return configured }
        if let groupId, !groupId.isEmpty { return groupId }
        return productId
    }

    static func grantsEntitlement(type: String, productId: String, app: AppConfiguration) -> Bool {
        app.entitlements[productId] != nil || type != "Consumable"
    }

    /// RevenueCat's period types, from the transaction's offer.
    static func periodType(_ transaction: TransactionRow) -> String {
        if transaction.offerDiscountType == "FREE_TRIAL" { return "trial" }
        if transaction.offerType == 1 { return "intro" }
        return "normal"
    }
}
