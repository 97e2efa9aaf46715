import StoreModel

/// Apple's Family Sharing rules for in-app purchases: non-consumables and auto-renewable
/// subscriptions marked family-shareable are shared with the purchaser's family group (the
/// organizer and up to five members). "Each family member gets their own unique receipts and
/// transactions": a copy has its own transaction ID and original transaction ID, the member's
/// app transaction, ownership `FAMILY_SHARED`, and the purchase's product and dates.
public enum FamilySharingRules {
    /// "share … with up to five family members": six people in a group.
    public static let maxGroupSize = 6

    /// Only what the purchaser bought (never a copy) of a shareable non-consumable or subscription.
    public static func isShared(_ product: CatalogProduct, ownership: String) -> Bool {
        product.familyShareable && ownership == InAppOwnershipType.purchased.rawValue
            && (product.kind == .nonConsumable || product.kind == .autoRenewable)
    }

    /// The member's copy of a purchaser's transaction. The app account token is the purchaser's
    /// own link to an account in the developer's system, so the copy doesn't carry it; the
    /// `webOrderLineItemId` is the copy's own, derived from its transaction ID.
    public static func copy(
        of source: TransactionPayload, transactionId: Int64, originalTransactionId: Int64, appTransactionId: String
    ) -> TransactionPayload {
        var copy = source
        copy.transactionId = String(transactionId)
        copy.originalTransactionId = String(originalTransactionId)
        if source.webOrderLineItemId != nil { copy.webOrderLineItemId = TransactionFactory.webOrderLineItemId(for: transactionId) }
        copy.inAppOwnershipType = .familyShared
        copy.appAccountToken = nil
        copy.appTransactionId = appTransactionId
        copy.revocationDate = nil
        copy.revocationReason = nil
        copy.revocationType = nil
        copy.revocationPercentage = nil
        return copy
    }

    /// Revokes a copy. Apple: the revocation reason is 0 when the member leaves the family or the
    /// purchaser stops sharing, and the purchaser's own reason when the purchaser was refunded.
    public static func revoke(_ copy: inout TransactionPayload, atMs: Int64, reason: RevocationReason) {
        copy.revocationDate = atMs
        copy.revocationReason = reason
        copy.revocationType = .familyRevoke
        copy.revocationPercentage = nil
    }

    /// The App Store Server Notification a member's copy gets when the purchaser's subscription
    /// gets `type`/`subtype`, or nil when members get none for it. Each carries the member's own
    /// transaction (and renewal info), `inAppOwnershipType` FAMILY_SHARED, after the purchaser's.
    ///
    /// - SUBSCRIBED and OFFER_REDEEMED: Apple DTS on the Developer Forums (thread 744155): "you will
    ///   receive PURCHASED for the owner and FAMILY_SHARED for the" family members. The member's
    ///   subtype is the member's own: INITIAL_BUY when the copy starts the member's copy chain
    ///   (a new original transaction ID), RESUBSCRIBE when it continues one.
    /// - DID_CHANGE_RENEWAL_STATUS: the same thread reports them arriving with FAMILY_SHARED.
    /// - DID_FAIL_TO_RENEW and DID_RENEW (BILLING_RECOVERY is V2's DID_RECOVER): Apple's
    ///   "Updates to App Store server notifications" (2021): sent "for each family member"; a plain
    ///   DID_RENEW gives each member a new transaction the same way, so it is sent too.
    /// - DID_CHANGE_RENEWAL_PREF with UPGRADE (an immediate upgrade or crossgrade, which gives each
    ///   member a copy of the new product): SUBSCRIBED, INITIAL_BUY or RESUBSCRIBE by the member's
    ///   chain as above. Apple's SUBSCRIBED/RESUBSCRIBE covers a customer who "received access
    ///   through Family Sharing to the same subscription or to another subscription within the same
    ///   subscription group" (notificationType); Apple documents nothing more specific for members.
    /// Apple documents nothing for members on the other types (EXPIRED, GRACE_PERIOD_EXPIRED,
    /// a scheduled DOWNGRADE, PRICE_INCREASE, RENEWAL_EXTENDED, refunds) nor for one-time
    /// purchases (ONE_TIME_CHARGE): none is sent. A member losing access gets REVOKE (`revoke`).
    public static func memberNotification(
        type: NotificationType, subtype: NotificationSubtype?, startsMemberChain: Bool
    ) -> (type: NotificationType, subtype: NotificationSubtype?)? {
        switch type {
        case .subscribed, .offerRedeemed:
            guard subtype == .initialBuy || subtype == .resubscribe else { return (type, subtype) }
            return (type, startsMemberChain ? .initialBuy : .resubscribe)
        case .didRenew, .didChangeRenewalStatus, .didFailToRenew:
            return (type, subtype)
        case .didChangeRenewalPref where subtype == .upgrade:
            return (.subscribed, startsMemberChain ? .initialBuy : .resubscribe)
        default:
            return nil
        }
    }

    /// Whether the purchaser's `type` notifications are mirrored to members at all (a cheap test
    /// before looking for copies).
    public static func notifiesMembers(_ type: NotificationType) -> Bool {
        memberNotification(type: type, subtype: nil, startsMemberChain: false) != nil
    }

    /// The purchaser's subscription as a member sees it, for the renewal info and status of the
    /// member's notifications: the member's copy chain (its original transaction ID, latest copy,
    /// app transaction), `FAMILY_SHARED`, no app account token (the purchaser's own), and revoked
    /// once the member's copy is.
    public static func memberChain(
        of source: SubscriptionChain, member: String, copyOriginalId: Int64, latestCopyId: Int64,
        appTransactionId: String, copyRevoked: Bool
    ) -> SubscriptionChain {
        var chain = source
        chain.customer = member
        chain.originalTransactionId = copyOriginalId
        chain.latestTransactionId = latestCopyId
        chain.appTransactionId = appTransactionId
        chain.appAccountToken = nil
        chain.ownership = .familyShared
        chain.sharedFromOriginalId = source.originalTransactionId
        chain.nextEvent = nil
        chain.nextEventMs = nil
        if copyRevoked {
            chain.state = .revoked
            chain.autoRenewEnabled = false
        }
        return chain
    }

    /// Whether a purchaser's transaction still gives access, so a member joining now gets a copy:
    /// non-consumables until refunded, subscriptions for the period not yet over.
    public static func grantsAccess(_ transaction: OwnedTransaction, nowMs: Int64) -> Bool {
        guard transaction.revokedMs == nil else { return false }
        switch transaction.kind {
        case .nonConsumable: return true
        case .autoRenewable: return (transaction.expiresMs ?? 0) > nowMs
        case .consumable, .nonRenewing: return false
        }
    }
}
