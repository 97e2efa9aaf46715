/// Which events a change of state makes. Pure: old and new rows in, candidates out. Each
/// candidate has a key naming the change itself (not the message that told us), so the same
/// change learned twice (a notification, then Transaction History) makes one event.
enum EventRules {
    struct Candidate: Equatable, Sendable {
        var type: EventType
        var key: String
        var storeTimeMs: Int64
        var environment: String
        var originalTransactionId: String
        /// The transaction the event is about (nil: the subscription's latest).
        var transaction: TransactionRow?
        var productId: String?
    }

    static let autoRenewable = "Auto-Renewable Subscription"
    static let freeTrial = "FREE_TRIAL"

    /// A transaction seen for the first time, or replaced by a newer signing of itself.
    static func transactionChanged(old: TransactionRow?, new: TransactionRow, previousInChain: TransactionRow?) -> [Candidate] {
        var out: [Candidate] = []
        func candidate(_ type: EventType, _ key: String, _ time: Int64) -> Candidate {
            Candidate(type: type, key: "tx|\(new.environment)|\(new.transactionId)|\(key)", storeTimeMs: time,
                      environment: new.environment, originalTransactionId: new.originalTransactionId,
                      transaction: new, productId: new.productId)
        }
        if old == nil {
            let type: EventType
            if new.type != autoRenewable {
                type = .nonRenewingPurchase
            } else if new.transactionId == new.originalTransactionId {
                type = new.offerDiscountType == freeTrial ? .trialStarted : .initialPurchase
            } else if new.reason == "RENEWAL" {
                // The renewal right after a free trial (contiguous, so a gap in what we know never
                // mislabels a later renewal).
                let wasTrial = previousInChain?.offerDiscountType == freeTrial && new.offerDiscountType != freeTrial
                    && previousInChain?.expiresMs == new.purchaseMs
                type = wasTrial ? .trialConverted : .renewal
            } else if let previous = previousInChain, previous.productId != new.productId,
                      (previous.expiresMs ?? 0) > new.purchaseMs {
                type = .productChange
            } else {
                type = .renewal
            }
            out.append(candidate(type, "purchase", new.purchaseMs))
        }
        // The same transaction signed again with a later end: its renewal date was extended.
        if let old, old.revocationMs == nil, new.revocationMs == nil, let before = old.expiresMs, let after = new.expiresMs, after > before {
            out.append(candidate(.subscriptionExtended, "extended|\(after)", new.signedMs))
        }
        if old?.revocationMs == nil, let revoked = new.revocationMs {
            out.append(candidate(new.revocationType == "FAMILY_REVOKE" ? .revoke : .refund, "revoked|\(revoked)", revoked))
        }
        if let revoked = old?.revocationMs, new.revocationMs == nil {
            out.append(candidate(.refundReversed, "reversed|\(revoked)", new.signedMs))
        }
        return out
    }

    /// RevenueCat's `unsubscribe_detected_at`: the first signing seen with auto-renew off after
    /// the last one seen with it on. Every signing counts, older ones arriving late included, so
    /// shuffled arrivals end the same (`autoRenewOnMs` is the latest "on", `unsubscribeDetectedMs`
    /// the earliest "off" after it). One order is not recovered: an "on" arriving after "off"s from
    /// both before and after it leaves none until the next "off". Returns the two for the stored row.
    static func unsubscribeDetected(stored: RenewalRow?, signing: RenewalRow) -> (onMs: Int64?, offMs: Int64?) {
        var on = stored?.autoRenewOnMs
        var off = stored?.unsubscribeDetectedMs
        if signing.autoRenewStatus == 1 {
            on = max(on ?? signing.signedMs, signing.signedMs)
        } else if signing.autoRenewStatus == 0, signing.signedMs > (on ?? Int64.min) {
            off = min(off ?? signing.signedMs, signing.signedMs)
        }
        if let o = off, let n = on, o <= n { off = nil }
        return (on, off)
    }

    /// Renewal info replaced by a newer one. `latest` is the subscription's latest transaction.
    static func renewalChanged(old: RenewalRow?, new: RenewalRow, latest: TransactionRow?) -> [Candidate] {
        var out: [Candidate] = []
        func candidate(_ type: EventType, _ key: String, productId: String? = nil) -> Candidate {
            Candidate(type: type, key: key, storeTimeMs: new.signedMs, environment: new.environment,
                      originalTransactionId: new.originalTransactionId, transaction: nil,
                      productId: productId ?? latest?.productId ?? new.productId)
        }
        let base = "rn|\(new.environment)|\(new.originalTransactionId)"
        if let old {
            if old.autoRenewStatus == 1, new.autoRenewStatus == 0 {
                out.append(candidate(.cancellation, "\(base)|cancel|\(new.signedMs)"))
            }
            if old.autoRenewStatus == 0, new.autoRenewStatus == 1 {
                out.append(candidate(.uncancellation, "\(base)|uncancel|\(new.signedMs)"))
            }
            if let next = new.autoRenewProductId, next != old.autoRenewProductId, next != new.productId {
                out.append(candidate(.productChange, "\(base)|change|\(next)|\(new.signedMs)", productId: next))
            }
            if old.inBillingRetry, !new.inBillingRetry, new.expirationIntent == nil {
                out.append(candidate(.billingRecovered, "\(base)|recovered|\(new.signedMs)"))
            }
        }
        if new.inBillingRetry, old?.inBillingRetry != true {
            out.append(candidate(.billingIssue, "\(base)|billing|\(latest?.expiresMs ?? new.signedMs)"))
        }
        if new.expirationIntent != nil, !new.inBillingRetry, old == nil || old?.expirationIntent == nil || old?.inBillingRetry == true {
            out.append(expiration(environment: new.environment, originalTransactionId: new.originalTransactionId,
                                  latest: latest, at: new.signedMs))
        }
        return out
    }

    /// The subscription ran out (an EXPIRED or GRACE_PERIOD_EXPIRED notification, or renewal
    /// info with an expiration intent): keyed by the expiry it ends, so both make one event.
    static func expiration(environment: String, originalTransactionId: String, latest: TransactionRow?, at time: Int64) -> Candidate {
        Candidate(type: .expiration, key: "exp|\(environment)|\(originalTransactionId)|\(latest?.expiresMs ?? 0)",
                  storeTimeMs: latest?.expiresMs.map { min($0, time) } ?? time, environment: environment,
                  originalTransactionId: originalTransactionId, transaction: nil, productId: latest?.productId)
    }

    /// Whether `candidate` is a newer signing than `stored`; identical data is not newer, so a
    /// duplicate changes nothing, and a tie between different data is broken the same way in
    /// any order of arrival.
    static func isNewer(signedMs: Int64, jws: String, than storedMs: Int64, _ storedJWS: String) -> Bool {
        signedMs != storedMs ? signedMs > storedMs : jws > storedJWS
    }
}
