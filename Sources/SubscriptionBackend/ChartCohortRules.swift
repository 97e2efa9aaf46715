/// The cohort charts: a row per period's cohort (customers first seen in it, or subscriptions
/// whose first paid period began in it), judged at the chart's `asOf`, or at the end of each
/// period since for the columns of retention and lifetime value. RevenueCat cohorts its
/// conversion charts by when a customer was first seen or first bought, whichever came first
/// (https://www.revenuecat.com/docs/dashboard-and-metrics/charts/trial-conversion-chart). Pure.
enum ChartCohortRules {
    typealias Result = (series: [Chart.Series], rows: [[Double?]])

    /// The most periods since a cohort began that a cohort chart shows: a year of months, or
    /// about four months of days (RevenueCat's cohort tables are as wide).
    static let maxColumns = 120

    /// The customers first seen in each period, each found by bisection.
    static func cohorts(_ periods: [ChartPeriod], _ world: ChartRules.World) -> [Set<String>] {
        var out = [Set<String>](repeating: [], count: periods.count)
        for (user, first) in world.firstSeen {
            if let index = ChartRules.period(of: first, in: periods) { out[index].insert(user) }
        }
        return out
    }

    /// How many columns a cohort chart has: periods since the first cohort began, to the one
    /// holding `asOf`, at most `maxColumns`.
    static func columns(_ extended: [ChartPeriod]) -> Int { min(extended.count, maxColumns) }

    static func initialConversion(_ periods: [ChartPeriod], _ world: ChartRules.World) -> Result {
        let buyers = Set(world.purchased.compactMap { world.owner($0) })
        return conversion(periods, world, measure: "converted", title: "Made a purchase", converted: buyers)
    }

    static func conversionToPaying(_ periods: [ChartPeriod], _ world: ChartRules.World) -> Result {
        let paying = Set(world.purchased.filter(ChartRules.World.earned).compactMap(world.owner))
        return conversion(periods, world, measure: "paying", title: "Paying", converted: paying)
    }

    private static func conversion(_ periods: [ChartPeriod], _ world: ChartRules.World, measure: String, title: String,
                                   converted: Set<String>) -> Result {
        ([ChartRules.count("customers", "New customers"), ChartRules.count(measure, title), ChartRules.rate("rate", "Conversion")],
         cohorts(periods, world).map { cohort in
             let n = cohort.intersection(converted).count
             return [Double(cohort.count), Double(n), ChartRules.ratio(n, cohort.count)]
         })
    }

    /// Each cohort customer's first free trial: converted when a period that is not a trial
    /// followed it in the same subscription; pending while it runs set to renew; else abandoned.
    static func trialConversion(_ periods: [ChartPeriod], _ world: ChartRules.World) -> Result {
        let now = world.input.asOfMs
        let renewals = Dictionary(world.input.renewals.map { (ChartRules.key($0.environment, $0.originalTransactionId), $0) },
                                  uniquingKeysWith: { a, b in a.signedMs >= b.signedMs ? a : b })
        var firstTrial: [String: TransactionRow] = [:]
        for t in world.purchased where t.type == EventRules.autoRenewable && Entitlements.periodType(t) == "trial" {
            guard let user = world.owner(t) else { continue }
            if let seen = firstTrial[user], (seen.purchaseMs, seen.transactionId) <= (t.purchaseMs, t.transactionId) { continue }
            firstTrial[user] = t
        }
        let series = [ChartRules.count("customers", "New customers"), ChartRules.count("trials", "Started a trial"),
                      ChartRules.count("converted", "Converted"), ChartRules.count("pending", "Pending"),
                      ChartRules.count("abandoned", "Abandoned"), ChartRules.rate("conversionRate", "Trial conversion")]
        return (series, cohorts(periods, world).map { cohort in
            var trials = 0, converted = 0, pending = 0
            for user in cohort {
                guard let trial = firstTrial[user] else { continue }
                trials += 1
                let key = ChartRules.key(trial.environment, trial.originalTransactionId)
                let chain = world.chains[key] ?? []
                if chain.contains(where: { $0.transactionId != trial.transactionId && $0.purchaseMs >= trial.purchaseMs
                    && $0.type == EventRules.autoRenewable && Entitlements.periodType($0) != "trial" }) {
                    converted += 1
                } else if (trial.expiresMs ?? 0) > now, trial.revocationMs == nil, renewals[key]?.autoRenewStatus != 0 {
                    pending += 1
                }
            }
            return [Double(cohort.count), Double(trials), Double(converted), Double(pending), Double(trials - converted - pending),
                    ChartRules.ratio(converted, trials)]
        })
    }

    /// Subscriptions by the period their first paid period began in; the share paid and active at
    /// the end of that period and of each one since (null for periods not reached).
    static func retention(_ periods: [ChartPeriod], _ extended: [ChartPeriod], _ world: ChartRules.World) -> Result {
        let width = columns(extended)
        var series = [ChartRules.count("subscriptions", "Subscriptions")]
        for i in 0..<width {
            series.append(Chart.Series(id: "retained.\(i)", measure: "retained", currency: nil, periodsSince: i,
                                       title: "Retained after \(i) period\(i == 1 ? "" : "s")", unit: "rate"))
        }
        var cohorts = [[PaidTimeline]](repeating: [], count: periods.count)
        for s in world.subscriptions {
            if let first = s.timeline.firstPaidMs, let index = ChartRules.period(of: first, in: periods) { cohorts[index].append(s.timeline) }
        }
        return (series, cohorts.enumerated().map { c, cohort in
            var row: [Double?] = [Double(cohort.count)]
            for i in 0..<width {
                guard c + i < extended.count else { row.append(nil); continue }
                let at = extended[c + i].atMs
                row.append(ChartRules.ratio(cohort.filter { $0.paid(at: at) != nil }.count, cohort.count))
            }
            return row
        })
    }

    /// What each cohort of customers has paid by the end of its period and each one since,
    /// divided by the cohort's size, per currency (refunded payments left out).
    static func ltv(_ periods: [ChartPeriod], _ extended: [ChartPeriod], _ world: ChartRules.World) -> Result {
        let width = columns(extended)
        let earned = world.purchased.filter(ChartRules.World.earned).filter { !($0.currency ?? "").isEmpty }
        let currencies = Set(earned.compactMap(\.currency)).sorted()
        var series = [ChartRules.count("customers", "Customers")]
        for currency in currencies {
            for i in 0..<width {
                series.append(Chart.Series(id: "ltv.\(currency).\(i)", measure: "ltv", currency: currency, periodsSince: i,
                                           title: "LTV after \(i) period\(i == 1 ? "" : "s") (\(currency))", unit: "money"))
            }
        }
        let byOwner = Dictionary(grouping: earned, by: { world.owner($0) ?? "" })
        return (series, cohorts(periods, world).enumerated().map { c, cohort in
            var row: [Double?] = [Double(cohort.count)]
            let payments = cohort.flatMap { byOwner[$0] ?? [] }.sorted { $0.purchaseMs < $1.purchaseMs }
            for currency in currencies {
                let paid = payments.filter { $0.currency == currency }
                var total = 0.0, next = 0
                for i in 0..<width {
                    guard c + i < extended.count, !cohort.isEmpty else { row.append(nil); continue }
                    let at = extended[c + i].atMs
                    while next < paid.count, paid[next].purchaseMs <= at {
                        total += Double(paid[next].price ?? 0)
                        next += 1
                    }
                    row.append(ChartRules.units(total / Double(cohort.count)))
                }
            }
            return row
        })
    }
}
