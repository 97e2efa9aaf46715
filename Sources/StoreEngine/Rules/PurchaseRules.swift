import Foundation
import StoreModel
import StoreSigning

/// Apple's rules for whether a purchase may go ahead.
public enum PurchaseRules {
    /// StoreKit's `quantity` purchase option: only consumables may be bought in bulk, at most 10 at once.
    public static let maxConsumableQuantity = 10

    /// Refuses a quantity outside 1–10 for a consumable, or other than 1 for any other product.
    public static func checkQuantity(_ quantity: Int, for product: CatalogProduct) throws(StoreError) {
        if product.kind == .consumable {
            guard (1...maxConsumableQuantity).contains(quantity) else {
                throw .invalidQuantity("quantity must be between 1 and \(maxConsumableQuantity) for consumable \(product.id), got \(quantity)")
            }
        } else if quantity != 1 {
            throw .invalidQuantity("quantity must be 1 for \(product.kind.transactionType.rawValue) \(product.id), got \(quantity)")
        }
    }

    /// StoreKit only accepts a UUID as `appAccountToken`; Apple's payloads carry it in lowercase.
    public static func appAccountToken(_ text: String?) throws(StoreError) -> String? {
        guard let text else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw .invalidAppAccountToken("appAccountToken must be a UUID, got \"\(text)\"")
        }
        return uuid.uuidString.lowercased()
    }

    /// StoreKitTest's purchase date: "a date in the past or the current moment. Dates in the
    /// future aren't valid." Testing only, so never in Production; and not before the store's
    /// signing certificates begin (`CertificateProfile.notValidBefore`, 2000-01-01).
    public static func checkPurchaseDate(_ ms: Int64?, environment: StoreEnvironment, nowMs: Int64) throws(StoreError) {
        guard let ms else { return }
        guard environment != .production else { throw .invalidAction("a purchase date is a testing option, not available in Production") }
        guard ms <= nowMs else { throw .invalidAction("the purchase date \(ms) is in the future (now is \(nowMs)); use now or a date in the past") }
        let earliest = Int64(CertificateProfile.notValidBefore.timeIntervalSince1970 * 1000)
        guard ms >= earliest else { throw .invalidAction("the purchase date \(ms) is before \(earliest), where the store's signing certificates begin") }
    }

    /// An owned non-consumable can't be bought twice, nor a subscription the customer is already
    /// subscribed to. Refunded purchases don't count: the customer may buy again.
    public static func checkNotOwned(_ product: CatalogProduct, history: [OwnedTransaction], nowMs: Int64) throws(StoreError) {
        switch product.kind {
        case .nonConsumable:
            if history.contains(where: { $0.productId == product.id && $0.revokedMs == nil }) {
                throw .alreadyPurchased("\(product.id) is a non-consumable the customer already owns")
            }
        case .autoRenewable:
            // One subscription per group at a time: another product of an active group is an
            // upgrade, downgrade or crossgrade of the same subscription, never a second one.
            let group = product.subscription?.groupID
            if let active = history.first(where: {
                $0.kind == .autoRenewable && $0.groupId == group && $0.revokedMs == nil && ($0.expiresMs ?? 0) > nowMs
            }) {
                if active.productId == product.id {
                    throw .alreadyPurchased("the customer is already subscribed to \(product.id)")
                }
                throw .alreadyPurchased("the customer is already subscribed to \(active.productId) in group \(group ?? "?"); changing plans within a group is not supported yet")
            }
        case .consumable, .nonRenewing:
            break
        }
    }
}
