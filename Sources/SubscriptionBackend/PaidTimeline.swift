/// One subscription's paid access as a sequence of changes: which transaction's price it paid
/// from each instant on (nil: none), so MRR and active counts at any instant, and their
/// movement between two instants, come from the same steps. A free trial is not paid access.
/// Built from all of the subscription's transactions (an upgrade ends the period it replaces),
/// keeping only the periods whose transaction a chart's filters admit. Pure.
struct PaidTimeline: Sendable {
    /// One paid period: [start, end), its transaction, and its price per month.
    struct Segment: Sendable {
        var start: Int64
        var end: Int64
        var transaction: TransactionRow
        var monthly: (currency: String, milliunits: Double)?
    }

    /// From `atMs` on, the subscription pays `to`'s price (nil: it has no paid access).
    struct Change: Sendable {
        var atMs: Int64
        var from: Segment?
        var to: Segment?
        /// `to` follows a lapse of paid access the subscription had before: a resubscription, not a new one.
        var resumed: Bool
    }

    let segments: [Segment]
    let changes: [Change]
    /// From each instant on, whether a free trial gives access without a paid period.
    let trialChanges: [(atMs: Int64, trialOnly: Bool)]

    init(_ chain: OverviewRules.Chain, admits: (TransactionRow) -> Bool = { _ in true }) {
        let spans = chain.spans.filter { admits(chain.transactions[$0.index]) }
        let paid = spans.filter { !$0.trial }.sorted { $0.start < $1.start }.map { span in
            let t = chain.transactions[span.index]
            return Segment(start: span.start, end: span.end, transaction: t, monthly: Self.monthly(t))
        }
        segments = paid
        var changes: [Change] = []
        var previous: Segment?
        for segment in paid {
            var from = previous
            if let previous, previous.end < segment.start {
                changes.append(Change(atMs: previous.end, from: previous, to: nil, resumed: false))
                from = nil
            }
            changes.append(Change(atMs: segment.start, from: from, to: segment, resumed: from == nil && previous != nil))
            previous = segment
        }
        if let previous { changes.append(Change(atMs: previous.end, from: previous, to: nil, resumed: false)) }
        self.changes = changes
        // Trials: the state at each boundary of an admitted span, kept where it changes.
        var trialChanges: [(atMs: Int64, trialOnly: Bool)] = []
        var state = false
        for instant in Set(spans.flatMap { [$0.start, $0.end] }).sorted() {
            var trial = false, paidNow = false
            for span in spans where span.start <= instant && instant < span.end {
                if span.trial { trial = true } else { paidNow = true }
            }
            let now = trial && !paidNow
            if now != state { trialChanges.append((instant, now)); state = now }
        }
        self.trialChanges = trialChanges
    }

    /// The paid period giving access at `ms`, if any.
    func paid(at ms: Int64) -> Segment? {
        segments.last { $0.start <= ms && ms < $0.end }
    }

    /// When the subscription's first paid period began; nil if it never had one.
    var firstPaidMs: Int64? { segments.first?.start }

    /// A transaction's price per month (RevenueCat's normalization, `OverviewPlanPeriod`; a
    /// period that is no calendar one counts as monthly), in milliunits of its currency.
    static func monthly(_ t: TransactionRow) -> (currency: String, milliunits: Double)? {
        guard let price = t.price, let currency = t.currency, !currency.isEmpty else { return nil }
        let factor = OverviewPlanPeriod.classify(purchaseMs: t.purchaseMs, expiresMs: t.expiresMs ?? t.purchaseMs)?.monthlyFactor ?? 1
        return (currency, Double(price) * factor)
    }
}
