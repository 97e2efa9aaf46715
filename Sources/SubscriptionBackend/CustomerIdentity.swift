import Crypto
import Foundation

/// What happens when an app posts a purchase that already belongs to another identified
/// customer (RevenueCat's "restore behavior"): a restore on a second account, a shared device.
public enum TransferPolicy: String, Codable, Sendable, CaseIterable {
    /// The purchase moves to the customer who posted it, with a `TRANSFER` event (RevenueCat's
    /// default: "only one customer at a time can have access").
    case transfer
    /// The purchase stays with its first customer; the post is answered 409 `purchaseBelongsToAnotherCustomer`.
    case keep
}

/// Who a customer ID names, and the rules of moving purchases between customers. Pure.
///
/// Three kinds of ID: the app's own (an identified customer), `$anon:` IDs the backend makes for
/// purchases no app user has claimed yet, and `$deleted:` IDs that keep a deleted customer's
/// revenue rows counted without naming them.
enum CustomerIdentity {
    static let anonymousPrefix = "$anon:"
    static let deletedPrefix = "$deleted:"
    /// IDs an SDK makes on the device before the user logs in (RevenueCat's, and ours): merged
    /// into the identified customer on log in, as RevenueCat aliases them.
    static let deviceAnonymousPrefixes = ["$anon:", "$RCAnonymousID:"]

    /// The anonymous customer of a purchase nobody claimed: derived from the purchase, so every
    /// instance and every replay of the same data names the same customer.
    static func anonymousId(environment: String, originalTransactionId: String) -> String {
        let digest = SHA256.hash(data: Data("anon|\(environment)|\(originalTransactionId)".utf8))
        return anonymousPrefix + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// A deleted customer's stand-in: random, so it cannot be traced back to the deleted ID.
    static func deletedId(_ uuid: UUID) -> String {
        deletedPrefix + uuid.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    static func isAnonymous(_ id: String) -> Bool {
        deviceAnonymousPrefixes.contains { id.hasPrefix($0) }
    }

    static func isDeleted(_ id: String) -> Bool { id.hasPrefix(deletedPrefix) }

    /// An ID the app may name a customer by: not one of the backend's own stand-ins.
    static func isIdentified(_ id: String) -> Bool { !isAnonymous(id) && !isDeleted(id) }

    /// What becomes of a purchase linked to `current` when `claimant` posts it.
    enum Claim: Equatable {
        /// Already the claimant's.
        case same
        /// `current` is anonymous: every purchase of it moves to the claimant, and its ID becomes
        /// the claimant's alias (RevenueCat: "that App User ID will be aliased with the new App User ID").
        case merge
        /// `current` was deleted: this purchase alone moves, quietly (the deleted customer has no one to tell).
        case relink
        /// Between identified customers, under `transfer`: the purchase moves, with a `TRANSFER` event.
        case transfer
        /// Between identified customers, under `keep`: nothing moves.
        case keep
    }

    static func claim(current: String, claimant: String, policy: TransferPolicy) -> Claim {
        if current == claimant { return .same }
        if isAnonymous(current) { return .merge }
        if isDeleted(current) { return .relink }
        return policy == .transfer ? .transfer : .keep
    }
}
