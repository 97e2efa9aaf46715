/// One subscription's paid access as a sequence of changes: which transaction's price it paid
/// from each instant on (nil: none), so MRR and active counts at any instant, and their
/// movement between two instants, come from the same steps. A free trial is not paid access.
/// Pure.
struct PaidTimeline: Sendable {
    /// From `atMs` on, the subscription pays `to`'s price (nil: it has no paid access).
    struct Change: Sendable {
        var atMs: Int64
        var from: TransactionRow?
        var to: TransactionRow?
        /// `to` follows a lapse of paid access the subscription had before: a resubscription, not a new one.
        var resumed: Bool
    }

    let changes: [Change]
    let segments: [(start: Int64, end: Int64, transaction: TransactionRow)]

    init(_ chain: OverviewRules.Chain) {
        let paid = chain.spans.filter { !$0.trial }.sorted { $0.start < $1.start }
            .map { (start: $0.start, end: $0.end, transaction: chain.transactions[$0.index]) }
        segments = paid
        var changes: [Change] = []
        var previous: (end: Int64, transaction: TransactionRow)?
        for segment in paid {
            var from = previous?.transaction
            if let previous, previous.end < segment.start {
                changes.append(Change(atMs: previous.end, from: previous.transaction, to: nil, resumed: false))
                from = nil
            }
            changes.append(Change(atMs: segment.start, from: from, to: segment.transaction, resumed: from == nil && previous != nil))
            previous = (segment.end, segment.transaction)
        }
        if let previous { changes.append(Change(atMs: previous.end, from: previous.transaction, to: nil, resumed: false)) }
        self.changes = changes
    }

    /// The transaction paying for access at `ms`, if any.
    func paid(at ms: Int64) -> TransactionRow? {
        segments.last { $0.start <= ms && ms < $0.end }?.transaction
    }

    /// When the subscription's first paid period began; nil if it never had one.
    var firstPaidMs: Int64? { segments.first?.start }

    /// The changes in (afterMs, untilMs].
    func changes(after afterMs: Int64, until untilMs: Int64) -> [Change] {
        changes.filter { $0.atMs > afterMs && $0.atMs <= untilMs }
    }

    /// A transaction's price per month (RevenueCat's normalization, `OverviewPlanPeriod`; a
    /// period that is no calendar one counts as monthly), in milliunits of its currency.
    static func monthly(_ t: TransactionRow) -> (currency: String, milliunits: Double)? {
        guard let price = t.price, let currency = t.currency, !currency.isEmpty else { return nil }
        let factor = OverviewPlanPeriod.classify(purchaseMs: t.purchaseMs, expiresMs: t.expiresMs ?? t.purchaseMs)?.monthlyFactor ?? 1
        return (currency, Double(price) * factor)
    }
}
