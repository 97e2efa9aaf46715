import StoreKit

/// The article's `PurchaseView` (the paywall), as text: a purchase button per product (disabled
/// while that subscription is active), "Restore purchases", the terms, and "Not now". Its
/// actions are the article's: buy, restore, dismiss.
struct PurchaseView {
    /// The paywall as the screen shows it, one line each.
    func render() -> [String] {
        var lines = ["Get Premium Membership", "Choose one of the packages above"]
        for product in ProductsStore.shared.products {
            let price = product.localizedPrice().replacingOccurrences(of: "\n", with: " ")
            let disabled = IAPManager.shared.isActive(product: product) ? " (disabled: active)" : ""
            lines.append("[ \(product.localizedTitle): \(price) ]\(disabled)")
        }
        lines += ["• Unlimited searches", "• 100GB downloads", "• Multiplatform service",
                  "Terms of use | Restore purchases | Privacy policy", terms_text, "Not now"]
        return lines
    }

    func purchaseProduct(skproduct: SKProduct, done: @escaping (Bool) -> Void) {
        print("did tap purchase product: \(skproduct.productIdentifier)")
        IAPManager.shared.purchaseProduct(product: skproduct, success: {
            ProductsStore.shared.handleUpdateStore()
            self.dismiss()
            done(true)
        }, failure: { _ in
            ProductsStore.shared.handleUpdateStore()
            done(false)
        })
    }

    func restorePurchases(done: @escaping (Bool) -> Void) {
        IAPManager.shared.restorePurchases(success: {
            ProductsStore.shared.handleUpdateStore()
            self.dismiss()
            done(true)
        }, failure: { _ in
            ProductsStore.shared.handleUpdateStore()
            done(false)
        })
    }

    /// "Not now", or after a purchase or restore: the paywall closes.
    func dismiss() {
        print("Paywall dismissed")
    }
}
