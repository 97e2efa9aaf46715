/// Apple's commission on a transaction, and so the developer's proceeds before taxes. Apple
/// ("85% net revenue after one year", developer.apple.com/app-store/subscriptions): 30 % by
/// default; 15 % for members of the App Store Small Business Program; 15 % on auto-renewable
/// subscriptions once the subscriber has one year of paid service. "Days of paid service include
/// all subscription offer types … with paid pricing options"; "Free trials and renewal extensions
/// are excluded"; they "are specific to each subscription group"; upgrades, downgrades and
/// crossgrades within the group "don't affect" them; after an expiry "If the subscription is
/// renewed within 60 days, the days of paid service resume from the recovery date", and a longer
/// lapse starts them over. Pure: the rows in, the rate out.
enum ProceedsRules {
    static let standardCommission = 0.30
    static let reducedCommission = 0.15
    static let dayMs: Int64 = 86_400_000
    /// One year of paid service.
    static let yearMs: Int64 = 365 * dayMs
    /// The longest lapse after which the days of paid service resume rather than start over.
    static let resumableLapseMs: Int64 = 60 * dayMs

    /// Paid service in the subscription before `transaction` began: its paid periods (price above
    /// zero, not a free trial, not refunded), each counted until it ended or the next began,
    /// started over after a lapse of more than 60 days. A renewal-date extension already applied
    /// to a period counts with it: the backend sees the period's new end only.
    static func paidServiceMs(before transaction: TransactionRow, in chain: [TransactionRow]) -> Int64 {
        let paid = chain.filter {
            $0.purchaseMs < transaction.purchaseMs && ($0.price ?? 0) > 0 && $0.offerDiscountType != "FREE_TRIAL" && $0.revocationMs == nil
        }.sorted { $0.purchaseMs < $1.purchaseMs }
        var total: Int64 = 0
        var lastEnd: Int64?
        for (index, period) in paid.enumerated() {
            if let lastEnd, period.purchaseMs - lastEnd > resumableLapseMs { total = 0 }
            let nextStart = index + 1 < paid.count ? paid[index + 1].purchaseMs : transaction.purchaseMs
            let end = min(period.expiresMs ?? period.purchaseMs, nextStart)
            total += max(0, end - period.purchaseMs)
            lastEnd = max(lastEnd ?? end, end)
        }
        if let lastEnd, transaction.purchaseMs - lastEnd > resumableLapseMs { total = 0 }
        return total
    }

    /// Apple's commission on `transaction` as a fraction of its price.
    static func commission(_ transaction: TransactionRow, chain: [TransactionRow], smallBusiness: Bool) -> Double {
        if smallBusiness { return reducedCommission }
        if transaction.type == EventRules.autoRenewable && paidServiceMs(before: transaction, in: chain) >= yearMs {
            return reducedCommission
        }
        return standardCommission
    }

    /// The price less the commission, in milliunits (rounded to the nearest); taxes are not deducted.
    static func proceedsMilliunits(price: Int64, commission: Double) -> Int64 {
        Int64((Double(price) * (1 - commission)).rounded())
    }
}
