/// How each chart is computed from the backend's rows (docs/backend.md, Charts, defines each and
/// names RevenueCat's page it follows). Pure: rows, the filters, the periods and the clock in;
/// series and values out. Only what customers paid for themselves counts as money and as a
/// subscription: `FAMILY_SHARED` copies are access a family organizer's purchase grants.
///
/// Each chart walks its rows once (changes of paid access sorted in time, purchases sorted by
/// date, periods found by bisection), so a year of days costs about what a year of months does.
enum ChartRules {
    struct Input: Sendable {
        /// Every stored transaction of the apps and environments asked for, admitted or not: a
        /// subscription's periods end where the next one begins, whatever the product filter says.
        var transactions: [TransactionRow]
        /// The transaction-level filters (product, country, store): what counts.
        var admits: @Sendable (TransactionRow) -> Bool
        var renewals: [RenewalRow]
        /// `environment|originalTransactionId` → the customer who owns the purchase.
        var owners: [String: String]
        /// Every customer with when the backend first heard of them, on its own clock and on the
        /// store's as it knew it then (nil for customers recorded before that was kept).
        var customers: [(appUserId: String, firstSeenMs: Int64, firstSeenStoreMs: Int64?)]
        /// Each customer's first purchase of any product, in any app or environment.
        var firstPurchases: [String: Int64]
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
        /// Admitted transactions customers paid for themselves, by purchase date.
        let purchased: [TransactionRow]
        /// Admitted transactions of any ownership.
        let admitted: [TransactionRow]
        /// Each customer counted by the customer charts and when they were first seen.
        let firstSeen: [String: Int64]
        /// `environment|originalTransactionId` → all its purchased transactions, for proceeds.
        let chains: [String: [TransactionRow]]

        init(_ input: Input) {
            self.input = input
            let renewals = Dictionary(input.renewals.map { (key($0.environment, $0.originalTransactionId), $0) },
                                      uniquingKeysWith: { a, b in a.signedMs >= b.signedMs ? a : b })
            let own = input.transactions.filter { $0.ownership == OverviewRules.purchased }
            admitted = input.transactions.filter(input.admits)
            purchased = own.filter(input.admits).sorted { ($0.purchaseMs, $0.transactionId) < ($1.purchaseMs, $1.transactionId) }
            chains = Dictionary(grouping: own, by: { key($0.environment, $0.originalTransactionId) })
            let admits = input.admits
            subscriptions = chains.compactMap { key, rows -> (OverviewRules.Chain, PaidTimeline)? in
                let renewing = rows.filter { $0.type == EventRules.autoRenewable }
                guard !renewing.isEmpty, renewing.contains(where: admits) else { return nil }
                let chain = OverviewRules.Chain(transactions: renewing, renewal: renewals[key], nowMs: input.asOfMs)
                return (chain, PaidTimeline(chain, admits: admits))
            }
            // First seen: the earlier of the first purchase and when the backend first heard of
            // them, both on the store's clock. A customer recorded before the backend kept the
            // latter on the store's clock (its own runs behind a test world) has their first
            // purchase, else the backend's clock. Filters choose who counts, never when.
            let admittedOwners = Set(admitted.compactMap { input.owners[key($0.environment, $0.originalTransactionId)] })
            var firstSeen: [String: Int64] = [:]
            for customer in input.customers {
                if input.narrowsCustomers && !admittedOwners.contains(customer.appUserId) { continue }
                let bought = input.firstPurchases[customer.appUserId]
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

        /// Every change of paid access, oldest first, with its subscription's index.
        var changes: [(subscription: Int, change: PaidTimeline.Change)] {
            subscriptions.enumerated().flatMap { index, s in s.timeline.changes.map { (index, $0) } }.sorted { $0.change.atMs < $1.change.atMs }
        }
    }

    static func key(_ environment: String, _ id: String) -> String { "\(environment)|\(id)" }

    /// The index of the period holding `ms` (from its start to its `atMs`), or nil.
    static func period(of ms: Int64, in periods: [ChartPeriod]) -> Int? {
        var low = 0, high = periods.count
        while low < high {
            let mid = (low + high) / 2
            if periods[mid].startMs <= ms { low = mid + 1 } else { high = mid }
        }
        let index = low - 1
        return index >= 0 && ms <= periods[index].atMs ? index : nil
    }

    /// The chart's series and one row of values per period (or cohort). `extended` runs from the
    /// first period to the one holding `asOf`: a cohort's later columns.
    static func compute(_ name: ChartName, periods: [ChartPeriod], extended: [ChartPeriod], world: World)
        -> (series: [Chart.Series], rows: [[Double?]]) {
        switch name {
        case .revenue: return revenue(periods, world)
        case .mrr: return recurring(periods, world, factor: 1, measure: "mrr", title: "MRR")
        case .arr: return recurring(periods, world, factor: 12, measure: "arr", title: "ARR")
        case .mrrMovement: return mrrMovement(periods, world)
        case .actives: return actives(periods, world)
        case .activesMovement: return activesMovement(periods, world)
        case .trials: return trials(periods, world)
        case .customersNew:
            return ([count("customers", "New customers")], ChartCohortRules.cohorts(periods, world).map { [Double($0.count)] })
        case .churn: return churn(periods, world)
        case .refundRate: return refundRate(periods, world)
        case .nonSubscriptionPurchases: return nonSubscription(periods, world)
        case .trialConversion: return ChartCohortRules.trialConversion(periods, world)
        case .initialConversion: return ChartCohortRules.initialConversion(periods, world)
        case .conversionToPaying: return ChartCohortRules.conversionToPaying(periods, world)
        case .subscriptionRetention: return ChartCohortRules.retention(periods, extended, world)
        case .ltvPerCustomer: return ChartCohortRules.ltv(periods, extended, world)
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

    /// The state at each period's end (and just before its start), swept once through every
    /// change in time order: MRR per currency and the number of paid subscriptions.
    struct State {
        var mrr: [String: Double] = [:]
        var actives = 0
    }

    static func states(_ periods: [ChartPeriod], _ world: World) -> (atStart: [State], atEnd: [State]) {
        let changes = world.changes
        var state = State()
        var next = 0
        func advance(to ms: Int64) {
            while next < changes.count, changes[next].change.atMs <= ms {
                let change = changes[next].change
                if let from = change.from {
                    state.actives -= 1
                    if let m = from.monthly { state.mrr[m.currency, default: 0] -= m.milliunits }
                }
                if let to = change.to {
                    state.actives += 1
                    if let m = to.monthly { state.mrr[m.currency, default: 0] += m.milliunits }
                }
                next += 1
            }
        }
        var atStart: [State] = [], atEnd: [State] = []
        for p in periods {
            advance(to: p.startMs - 1)
            atStart.append(state)
            advance(to: p.atMs)
            atEnd.append(state)
        }
        return (atStart, atEnd)
    }

    /// MRR (factor 1) or ARR (12) at each period's end.
    static func recurring(_ periods: [ChartPeriod], _ world: World, factor: Double, measure: String, title: String)
        -> (series: [Chart.Series], rows: [[Double?]]) {
        let rows = states(periods, world).atEnd.map { state -> [String: [String: Double]] in
            [measure: state.mrr.filter { abs($0.value) > 1e-6 }.mapValues { $0 * factor }]
        }
        return perCurrency([(measure, title)], rows: rows)
    }

    static func mrrMovement(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let measures = [("new", "New"), ("resubscription", "Resubscription"), ("expansion", "Expansion"),
                        ("contraction", "Contraction"), ("churned", "Churned"), ("net", "Net movement")]
        var rows = [[String: [String: Double]]](repeating: [:], count: periods.count)
        for (_, change) in world.changes {
            guard let index = period(of: change.atMs, in: periods) else { continue }
            func add(_ measure: String, _ amount: (currency: String, milliunits: Double)?, sign: Double) {
                guard let amount else { return }
                rows[index][measure, default: [:]][amount.currency, default: 0] += sign * amount.milliunits
                rows[index]["net", default: [:]][amount.currency, default: 0] += sign * amount.milliunits
            }
            switch (change.from?.monthly, change.to?.monthly) {
            case (nil, let after?): add(change.resumed ? "resubscription" : "new", after, sign: 1)
            case (let before?, nil): add("churned", before, sign: -1)
            case (let before?, let after?) where before.currency != after.currency:
                add("churned", before, sign: -1)
                add("new", after, sign: 1)
            case (let before?, let after?):
                let delta = after.milliunits - before.milliunits
                if delta > 0 { add("expansion", (after.currency, delta), sign: 1) }
                if delta < 0 { add("contraction", (after.currency, -delta), sign: -1) }
            case (nil, nil): break
            }
        }
        return perCurrency(measures, rows: rows)
    }

    static func actives(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        ([count("actives", "Active subscriptions")], states(periods, world).atEnd.map { [Double($0.actives)] })
    }

    static func activesMovement(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let series = [count("new", "New"), count("resubscription", "Resubscription"), count("churned", "Churned"), count("net", "Net movement")]
        var new = [Int](repeating: 0, count: periods.count), resumed = new, churned = new
        for (_, change) in world.changes {
            guard let index = period(of: change.atMs, in: periods) else { continue }
            if change.from == nil && change.to != nil { if change.resumed { resumed[index] += 1 } else { new[index] += 1 } }
            if change.from != nil && change.to == nil { churned[index] += 1 }
        }
        let rows: [[Double?]] = periods.indices.map { i in
            let net = new[i] + resumed[i] - churned[i]
            return [Double(new[i]), Double(resumed[i]), Double(-churned[i]), Double(net)]
        }
        return (series, rows)
    }

    static func trials(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let changes = world.subscriptions.flatMap(\.timeline.trialChanges).sorted { $0.atMs < $1.atMs }
        var active = 0, next = 0
        let rows = periods.map { p -> [Double?] in
            while next < changes.count, changes[next].atMs <= p.atMs {
                active += changes[next].trialOnly ? 1 : -1
                next += 1
            }
            let started = world.bought(in: p).filter { $0.type == EventRules.autoRenewable && Entitlements.periodType($0) == "trial" }.count
            return [Double(active), Double(started)]
        }
        return ([count("active", "Active trials"), count("started", "Trials started")], rows)
    }

    /// Of the subscriptions paid at the period's start, those not paid at its end: a subscription
    /// with no change inside the period keeps its state, so only the changed ones are looked at.
    static func churn(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let atStart = states(periods, world).atStart
        var firstAndLast = [[Int: (first: PaidTimeline.Change, last: PaidTimeline.Change)]](repeating: [:], count: periods.count)
        for (subscription, change) in world.changes {
            guard let index = period(of: change.atMs, in: periods) else { continue }
            if let seen = firstAndLast[index][subscription] {
                firstAndLast[index][subscription] = (seen.first, change)
            } else {
                firstAndLast[index][subscription] = (change, change)
            }
        }
        let series = [count("activesAtStart", "Active at the period's start"), count("churned", "Churned"), rate("churnRate", "Churn rate")]
        return (series, periods.indices.map { i in
            let churned = firstAndLast[i].values.filter { $0.first.from != nil && $0.last.to == nil }.count
            return [Double(atStart[i].actives), Double(churned), ratio(churned, atStart[i].actives)]
        })
    }

    static func refundRate(_ periods: [ChartPeriod], _ world: World) -> (series: [Chart.Series], rows: [[Double?]]) {
        let admitted = Set(world.admitted.map { key($0.environment, $0.transactionId) })
        var requests = [Int](repeating: 0, count: periods.count)
        for request in world.input.refundRequests where admitted.contains(request.transaction) {
            if let index = period(of: request.requestedMs, in: periods) { requests[index] += 1 }
        }
        let series = [count("transactions", "Paid transactions"), count("refunded", "Refunded"), rate("refundRate", "Refund rate"),
                      count("refundRequests", "Refund requests")]
        return (series, periods.enumerated().map { i, p in
            let paid = world.bought(in: p).filter { ($0.price ?? 0) > 0 }
            let refunded = paid.filter { $0.revocationMs != nil && $0.revocationType != "FAMILY_REVOKE" }.count
            return [Double(paid.count), Double(refunded), ratio(refunded, paid.count), Double(requests[i])]
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
