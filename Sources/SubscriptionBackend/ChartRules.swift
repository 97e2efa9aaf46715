/// How each chart is computed from the backend's rows (docs/backend.md, Charts, defines each and
/// names RevenueCat's page it follows). Pure: filtered rows, the periods and the clock in; series
/// and values out. Only what customers paid for themselves counts as money and as a
/// subscription: `FAMILY_SHARED` copies are access a family organizer's purchase grants.
enum ChartRules {
    struct Input: Sendable {
        /// Every stored transaction the filters admit (`ChartFilters.admits`).
        var transactions: [TransactionRow]
        var renewals: [RenewalRow]
        /// `environment|originalTransactionId` → the customer who owns the purchase.
        var owners: [String: String]
        /// Every customer with when the backend first heard of them, on its own clock and on the
        /// store's as it knew it then (nil for customers recorded before that was kept).
        var customers: [(appUserId: String, firstSeenMs: Int64, firstSeenStoreMs: Int64?)]
        /// Refund requests (CONSUMPTION_REQUEST): `environment|transactionId` and when each arrived.
        var refundRequests: [(transaction: String, requestedMs: Int64)]
        /// Apps in the App Store Small Business Program (15 % commission).
        var smallBusinessApps: Set<String>
        var asOfMs: Int64
        /// A filter narrows the customers to those with an admitted purchase.
        var narrowsCustomers: Bool
    }

    /// The rows arranged once for every chart.
    struct World {
        let input: Input
        let subscriptions: [(chain: OverviewRules.Chain, timeline: PaidTimeline)]
        /// Transactions customers paid for themselves, by purchase date.
        let purchased: [TransactionRow]
        /// Each customer counted by the customer charts and when they were first seen.
        let firstSeen: [String: Int64]
        /// `environment|originalTransactionId` → its purchased transactions, for proceeds.
        let chains: [String: [TransactionRow]]

        init(_ input: Input) {
            self.input = input
            let renewals = Dictionary(input.renewals.map { (key($0.environment, $0.originalTransactionId), $0) },
                                      uniquingKeysWith: { a, b in a.signedMs >= b.signedMs ? a : b })
            purchased = input.transactions.filter { $0.ownership == OverviewRules.purchased }
                .sorted { ($0.purchaseMs, $0.transactionId) < ($1.purchaseMs, $1.transactionId) }
            chains = Dictionary(grouping: purchased, by: { key($0.environment, $0.originalTransactionId) })
            subscriptions = chains.compactMap { key, rows -> (OverviewRules.Chain, PaidTimeline)? in
                let renewing = rows.filter { $0.type == EventRules.autoRenewable }
                guard !renewing.isEmpty else { return nil }
                let chain = OverviewRules.Chain(transactions: renewing, renewal: renewals[key], nowMs: input.asOfMs)
                return (chain, PaidTimeline(chain))
            }.sorted { key($0.0.latest.environment, $0.0.latest.originalTransactionId) < key($1.0.latest.environment, $1.0.latest.originalTransactionId) }
            var firstPurchase: [String: Int64] = [:]
            for t in input.transactions {
                guard let user = input.owners[key(t.environment, t.originalTransactionId)] else { continue }
                firstPurchase[user] = min(firstPurchase[user] ?? t.purchaseMs, t.purchaseMs)
            }
            // First seen: the earlier of the first purchase and when the backend first heard of
            // them, both on the store's clock. A customer recorded before the backend kept the
            // latter on the store's clock (its own runs behind a test world) has their first
            // purchase, else the backend's clock.
            var firstSeen: [String: Int64] = [:]
            for customer in input.customers {
                let bought = firstPurchase[customer.appUserId]
                if input.narrowsCustomers && bought == nil { continue }
                if let heard = customer.firstSeenStoreMs {
                    firstSeen[customer.appUserId] = min(bought ?? heard, heard)
                } else {
                    firstSeen[customer.appUserId] = bought ?? customer.firstSeenMs
                }
            }
            self.firstSeen = firstSeen
        }

        func owner(_ t: TransactionRow) -> String? { input.owners[key(t.environment, t.originalTransactionId)] }

        /// The purchased transactions bought in the period (up to its `atMs`), found by bisection.
        func bought(in p: ChartPeriod) -> ArraySlice<TransactionRow> {
            func firstIndex(atOrAfter ms: Int64) -> Int {
                var low = 0, high = purchased.count
                while low < high {
                    let mid = (low + high) / 2
                    if purchased[mid].purchaseMs < ms { low = mid + 1 } else { high = mid }
                }
                return low
            }
            return purchased[firstIndex(atOrAfter: p.startMs)..<firstIndex(atOrAfter: p.atMs + 1)]
        }

        /// Paid (price above zero) and not refunded: what revenue counts.
        static func earned(_ t: TransactionRow) -> Bool { (t.price ?? 0) > 0 && t.revocationMs == nil }
    }

    static func key(_ environment: String, _ id: String) -> String { "\(environment)|\(id)" }

    /// The chart's series and one row of values per period (or cohort).
    static func compute(_ name: ChartName, periods: [ChartPeriod], world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        switch name {
        case .revenue: return revenue(periods, world)
        case .mrr: return recurring(periods, world, factor: 1, measure: "mrr", title: "MRR")
        case .arr: return recurring(periods, world, factor: 12, measure: "arr", title: "ARR")
        case .mrrMovement: return mrrMovement(periods, world)
        case .actives: return actives(periods, world)
        case .activesMovement: return activesMovement(periods, world)
        case .trials: return trials(periods, world)
        case .customersNew:
            return ([count("customers", "New customers")], periods.map { p in
                [Double(world.firstSeen.values.filter { $0 >= p.startMs && $0 <= p.atMs }.count)]
            })
        case .churn: return churn(periods, world)
        case .refundRate: return refundRate(periods, world)
        case .nonSubscriptionPurchases: return nonSubscription(periods, world)
        case .trialConversion: return ChartCohortRules.trialConversion(periods, world)
        case .initialConversion: return ChartCohortRules.initialConversion(periods, world)
        case .conversionToPaying: return ChartCohortRules.conversionToPaying(periods, world)
        case .subscriptionRetention: return ChartCohortRules.retention(periods, world)
        case .ltvPerCustomer: return ChartCohortRules.ltv(periods, world)
        }
    }

    // MARK: series

    static func count(_ measure: String, _ title: String) -> Chart.Series {
        Chart.Series(id: measure, measure: measure, currency: nil, periodsSince: nil, title: title, unit: "count")
    }

    static func rate(_ measure: String, _ title: String) -> Chart.Series {
        Chart.Series(id: measure, measure: measure, currency: nil, periodsSince: nil, title: title, unit: "rate")
    }

    static func money(_ measure: String, _ title: String, _ currency: String) -> Chart.Series {
        Chart.Series(id: "\(measure).\(currency)", measure: measure, currency: currency, periodsSince: nil,
                     title: "\(title) (\(currency))", unit: "money")
    }

    static func ratio(_ part: Int, _ whole: Int) -> Double? { whole == 0 ? nil : Double(part) / Double(whole) }

    /// Milliunits as units, to a millionth: exact for prices, and MRR's divisions (39.99 ÷ 12)
    /// read 3.3325, not 3.3324999999999996.
    static func units(_ milliunits: Double) -> Double { (milliunits * 1000).rounded() / 1_000_000 }

    /// Money series of several measures, one per currency seen: rows of milliunits become units.
    static func perCurrency(_ measures: [(id: String, title: String)], rows: [[String: [String: Double]]])
        -> (series: [Chart.Series], rows: [[Double?]]) {
        let currencies = Set(rows.flatMap { $0.values.flatMap(\.keys) }).sorted()
        var series: [Chart.Series] = []
        for measure in measures { for currency in currencies { series.append(money(measure.id, measure.title, currency)) } }
        let values = rows.map { row in
            measures.flatMap { measure in currencies.map { Optional(units(row[measure.id]?[$0] ?? 0)) } }
        }
        return (series, values)
    }

    // MARK: the charts

    static func revenue(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        var counts: [Double] = []
        let rows = periods.map { p -> [String: [String: Double]] in
            var revenue: [String: Double] = [:], proceeds: [String: Double] = [:]
            var n = 0
            for t in world.bought(in: p) where World.earned(t) {
                guard let currency = t.currency, !currency.isEmpty, let price = t.price else { continue }
                let commission = ProceedsRules.commission(t, chain: world.chains[key(t.environment, t.originalTransactionId)] ?? [t],
                                                          smallBusiness: world.input.smallBusinessApps.contains(t.bundleId))
                revenue[currency, default: 0] += Double(price)
                proceeds[currency, default: 0] += Double(ProceedsRules.proceedsMilliunits(price: price, commission: commission))
                n += 1
            }
            counts.append(Double(n))
            return ["revenue": revenue, "proceeds": proceeds]
        }
        var (series, values) = perCurrency([("revenue", "Revenue"), ("proceeds", "Proceeds")], rows: rows)
        series.append(count("transactions", "Transactions"))
        for i in values.indices { values[i].append(counts[i]) }
        return (series, values)
    }

    /// MRR (factor 1) or ARR (12) at each period's end.
    static func recurring(_ periods: [ChartPeriod], _ world: World, factor: Double, measure: String, title: String)
        -> (series: [Chart.Series], rows: [[Double?]]) {
        let rows = periods.map { p -> [String: [String: Double]] in
            var sums: [String: Double] = [:]
            for s in world.subscriptions {
                guard let t = s.timeline.paid(at: p.atMs), let m = PaidTimeline.monthly(t) else { continue }
                sums[m.currency, default: 0] += m.milliunits * factor
            }
            return [measure: sums]
        }
        return perCurrency([(measure, title)], rows: rows)
    }

    static func mrrMovement(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let measures = [("new", "New"), ("resubscription", "Resubscription"), ("expansion", "Expansion"),
                        ("contraction", "Contraction"), ("churned", "Churned"), ("net", "Net movement")]
        let rows = periods.map { p -> [String: [String: Double]] in
            var out: [String: [String: Double]] = [:]
            func add(_ measure: String, _ amount: (currency: String, milliunits: Double)?, sign: Double) {
                guard let amount else { return }
                out[measure, default: [:]][amount.currency, default: 0] += sign * amount.milliunits
                out["net", default: [:]][amount.currency, default: 0] += sign * amount.milliunits
            }
            for s in world.subscriptions {
                for change in s.timeline.changes(after: p.startMs - 1, until: p.atMs) {
                    let before = change.from.flatMap(PaidTimeline.monthly), after = change.to.flatMap(PaidTimeline.monthly)
                    switch (before, after) {
                    case (nil, let after?): add(change.resumed ? "resubscription" : "new", after, sign: 1)
                    case (let before?, nil): add("churned", before, sign: -1)
                    case (let before?, let after?) where before.currency != after.currency:
                        add("churned", before, sign: -1)
                        add("resubscription", after, sign: 1)
                    case (let before?, let after?):
                        let delta = after.milliunits - before.milliunits
                        if delta > 0 { add("expansion", (after.currency, delta), sign: 1) }
                        if delta < 0 { add("contraction", (after.currency, -delta), sign: -1) }
                    case (nil, nil): break
                    }
                }
            }
            return out
        }
        return perCurrency(measures, rows: rows)
    }

    static func actives(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        ([count("actives", "Active subscriptions")], periods.map { p in
            [Double(world.subscriptions.filter { $0.timeline.paid(at: p.atMs) != nil }.count)]
        })
    }

    static func activesMovement(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let series = [count("new", "New"), count("resubscription", "Resubscription"), count("churned", "Churned"), count("net", "Net movement")]
        return (series, periods.map { p in
            var new = 0, resumed = 0, churned = 0
            for s in world.subscriptions {
                for change in s.timeline.changes(after: p.startMs - 1, until: p.atMs) {
                    if change.from == nil && change.to != nil { if change.resumed { resumed += 1 } else { new += 1 } }
                    if change.from != nil && change.to == nil { churned += 1 }
                }
            }
            return [Double(new), Double(resumed), Double(-churned), Double(new + resumed - churned)]
        })
    }

    static func trials(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        ([count("active", "Active trials"), count("started", "Trials started")], periods.map { p in
            let active = world.subscriptions.filter {
                let access = $0.chain.access(at: p.atMs)
                return access.trial && !access.paid
            }.count
            let started = world.bought(in: p).filter { $0.type == EventRules.autoRenewable && Entitlements.periodType($0) == "trial" }.count
            return [Double(active), Double(started)]
        })
    }

    static func churn(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        ([count("activesAtStart", "Active at the period's start"), count("churned", "Churned"), rate("churnRate", "Churn rate")], periods.map { p in
            let atStart = world.subscriptions.filter { $0.timeline.paid(at: p.startMs - 1) != nil }
            let churned = atStart.filter { $0.timeline.paid(at: p.atMs) == nil }.count
            return [Double(atStart.count), Double(churned), ratio(churned, atStart.count)]
        })
    }

    static func refundRate(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let admitted = Set(world.input.transactions.map { key($0.environment, $0.transactionId) })
        let series = [count("transactions", "Paid transactions"), count("refunded", "Refunded"), rate("refundRate", "Refund rate"),
                      count("refundRequests", "Refund requests")]
        return (series, periods.map { p in
            let paid = world.bought(in: p).filter { ($0.price ?? 0) > 0 }
            let refunded = paid.filter { $0.revocationMs != nil && $0.revocationType != "FAMILY_REVOKE" }.count
            let requests = world.input.refundRequests.filter {
                admitted.contains($0.transaction) && $0.requestedMs >= p.startMs && $0.requestedMs <= p.atMs
            }.count
            return [Double(paid.count), Double(refunded), ratio(refunded, paid.count), Double(requests)]
        })
    }

    static func nonSubscription(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        var counts: [[Double?]] = []
        let rows = periods.map { p -> [String: [String: Double]] in
            let bought = world.bought(in: p).filter { $0.type != EventRules.autoRenewable }
            var revenue: [String: Double] = [:]
            for t in bought where World.earned(t) {
                if let currency = t.currency, !currency.isEmpty, let price = t.price { revenue[currency, default: 0] += Double(price) }
            }
            counts.append([Double(bought.count), Double(bought.filter { $0.revocationMs != nil }.count)])
            return ["revenue": revenue]
        }
        let money = perCurrency([("revenue", "Revenue")], rows: rows)
        return ([count("purchases", "Purchases"), count("refunded", "Refunded")] + money.series,
                zip(counts, money.rows).map { $0 + $1 })
    }
}
