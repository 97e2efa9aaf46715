/// How the overview's figures are computed from the backend's rows (docs/backend.md, Dashboard,
/// gives each definition and its source, RevenueCat's overview and charts). Pure: rows and a
/// clock in, figures out; `OverviewReads` only reads.
///
/// Only what customers paid for themselves counts: `FAMILY_SHARED` transactions are access
/// granted by a family organizer's purchase, already counted once as the organizer's.
enum OverviewRules {
    static let dayMs: Int64 = 86_400_000
    /// RevenueCat's overview window: revenue and new customers "in the last 28 days".
    static let windowMs: Int64 = 28 * dayMs
    static let chartDays = 30
    static let purchased = "PURCHASED"

    struct Input: Sendable {
        /// Every transaction bought or still running after `readStart`.
        var transactions: [TransactionRow]
        var renewals: [RenewalRow]
        /// Each subscription's latest purchase date (`environment|originalTransactionId`), to tell
        /// a subscription that ended before `readStart` from what its older transactions say.
        var latestPurchases: [String: Int64] = [:]
        /// When each customer first seen since `readStart` was first seen.
        var customerStarts: [Int64]
        var customers: Int
        var nowMs: Int64
        var environment: String?
    }

    /// Midnight UTC of the day holding `ms`.
    static func dayStart(_ ms: Int64) -> Int64 {
        let (q, r) = ms.quotientAndRemainder(dividingBy: dayMs)
        return (r < 0 ? q - 1 : q) * dayMs
    }

    static func chartStart(nowMs: Int64) -> Int64 { dayStart(nowMs) - Int64(chartDays - 1) * dayMs }

    /// How far back the reads reach: the chart's first day, less the 60 days a billing retry
    /// may last (a subscription that expired before then cannot be active on any chart day).
    static func readStart(nowMs: Int64) -> Int64 { chartStart(nowMs: nowMs) - 60 * dayMs }

    /// One subscription (an original transaction) with what it covered when.
    struct Chain {
        var transactions: [TransactionRow]
        var latest: TransactionRow
        var status: CustomerInfo.Subscription
        /// Half-open spans [start, end) of access, each paid or a free trial, with the index in
        /// `transactions` of the transaction that gave it.
        var spans: [(start: Int64, end: Int64, trial: Bool, index: Int)]

        init(transactions unsorted: [TransactionRow], renewal: RenewalRow?, nowMs: Int64) {
            transactions = unsorted.sorted { ($0.purchaseMs, $0.transactionId) < ($1.purchaseMs, $1.transactionId) }
            latest = transactions[transactions.count - 1]
            status = CustomerInfoBuilder.subscription(latest: latest, renewal: renewal, nowMs: nowMs)
            spans = []
            for (index, t) in transactions.enumerated() {
                var end = t.expiresMs ?? t.purchaseMs
                if index + 1 < transactions.count {
                    // An upgrade or a new period ends this one's access.
                    end = min(end, transactions[index + 1].purchaseMs)
                } else if renewal?.inBillingRetry == true, let grace = renewal?.gracePeriodExpiresMs, t.revocationMs == nil {
                    end = max(end, grace)
                }
                if let revoked = t.revocationMs { end = min(end, revoked) }
                if end > t.purchaseMs { spans.append((t.purchaseMs, end, Entitlements.periodType(t) == "trial", index)) }
            }
        }

        /// Whether a paid period or a free trial gave access at `ms`.
        func access(at ms: Int64) -> (paid: Bool, trial: Bool) {
            var paid = false, trial = false
            for span in spans where span.start <= ms && ms < span.end {
                if span.trial { trial = true } else { paid = true }
            }
            return (paid, trial)
        }

        var isPaidActive: Bool { status.isActive && status.periodType != "trial" }
        var isTrialActive: Bool { status.isActive && status.periodType == "trial" }
    }

    static func figures(_ input: Input) -> OverviewFigures {
        let now = input.nowMs
        let windowStart = now - windowMs
        let renewals = Dictionary(input.renewals.map { ("\($0.environment)|\($0.originalTransactionId)", $0) },
                                  uniquingKeysWith: { a, b in a.signedMs >= b.signedMs ? a : b })
        let grouped = Dictionary(grouping: input.transactions.filter { $0.type == EventRules.autoRenewable },
                                 by: { "\($0.environment)|\($0.originalTransactionId)" })
        let chains = grouped.compactMap { key, rows -> Chain? in
            let chain = Chain(transactions: rows, renewal: renewals[key], nowMs: now)
            if let latest = input.latestPurchases[key], latest > chain.latest.purchaseMs { return nil }
            return chain.latest.ownership == purchased ? chain : nil
        }

        // Now: actives, trials, MRR.
        var mrr: [String: (milliunits: Double, count: Int)] = [:]
        var assumedMonthly = 0
        for chain in chains where chain.isPaidActive {
            guard let price = chain.latest.price, let currency = chain.latest.currency, !currency.isEmpty else { continue }
            let factor: Double
            if let period = OverviewPlanPeriod.classify(purchaseMs: chain.latest.purchaseMs,
                                                        expiresMs: chain.latest.expiresMs ?? chain.latest.purchaseMs) {
                factor = period.monthlyFactor
            } else {
                factor = 1
                assumedMonthly += 1
            }
            mrr[currency, default: (0, 0)].milliunits += Double(price) * factor
            mrr[currency, default: (0, 0)].count += 1
        }

        // The window: revenue, refunds, trial conversion, churn.
        let paid = input.transactions.filter { $0.ownership == purchased && ($0.price ?? 0) > 0 }
        let inWindow = paid.filter { $0.purchaseMs > windowStart && $0.purchaseMs <= now }
        let refunded = inWindow.filter { $0.revocationMs != nil && $0.revocationType != "FAMILY_REVOKE" }
        let revenue = sum(inWindow.filter { $0.revocationMs == nil })
        var trialsEnded = 0, trialsConverted = 0
        for chain in chains {
            for trial in chain.transactions where Entitlements.periodType(trial) == "trial" {
                guard let end = trial.expiresMs, end > windowStart, end <= now else { continue }
                trialsEnded += 1
                if chain.transactions.contains(where: {
                    $0.transactionId != trial.transactionId && $0.purchaseMs >= trial.purchaseMs && Entitlements.periodType($0) != "trial"
                }) {
                    trialsConverted += 1
                }
            }
        }
        let activeAtStart = chains.filter { $0.access(at: windowStart).paid }
        let churned = activeAtStart.filter { !$0.status.isActive }

        // The charts: one point per UTC day.
        let firstDay = chartStart(nowMs: now)
        var days: [OverviewFigures.Day] = []
        for index in 0..<chartDays {
            let start = firstDay + Int64(index) * dayMs
            let at = min(start + dayMs - 1, now)
            let access = chains.map { $0.access(at: at) }
            let bought = paid.filter { $0.revocationMs == nil && $0.purchaseMs >= start && $0.purchaseMs < start + dayMs && $0.purchaseMs <= now }
            days.append(OverviewFigures.Day(
                date: date(start), startMs: start,
                activeSubscriptions: access.filter(\.paid).count,
                activeTrials: access.filter { $0.trial && !$0.paid }.count,
                newCustomers: input.customerStarts.filter { $0 >= start && $0 < start + dayMs && $0 <= now }.count,
                revenue: sum(bought)))
        }

        return OverviewFigures(
            asOf: now, windowStart: windowStart, environment: input.environment,
            activeSubscriptions: chains.filter(\.isPaidActive).count,
            activeTrials: chains.filter(\.isTrialActive).count,
            mrr: mrr.keys.sorted().map { OverviewFigures.CurrencyAmount(currency: $0, milliunits: mrr[$0]!.milliunits, count: mrr[$0]!.count) },
            mrrPeriodsAssumedMonthly: assumedMonthly,
            revenueLast28Days: revenue,
            newCustomers: input.customerStarts.filter { $0 > windowStart && $0 <= now }.count,
            customers: input.customers,
            trialConversion: .init(part: trialsConverted, of: trialsEnded),
            churn: .init(part: churned.count, of: activeAtStart.count),
            refundRate: .init(part: refunded.count, of: inWindow.count),
            days: days)
    }

    /// Prices summed per currency, sorted by currency code.
    static func sum(_ transactions: [TransactionRow]) -> [OverviewFigures.CurrencyAmount] {
        var totals: [String: (Int64, Int)] = [:]
        for t in transactions {
            guard let price = t.price, let currency = t.currency, !currency.isEmpty else { continue }
            totals[currency, default: (0, 0)].0 += price
            totals[currency, default: (0, 0)].1 += 1
        }
        return totals.keys.sorted().map { OverviewFigures.CurrencyAmount(currency: $0, milliunits: Double(totals[$0]!.0), count: totals[$0]!.1) }
    }

    /// `YYYY-MM-DD` of the UTC day holding `ms` (`ChartPeriods`' civil-from-days arithmetic).
    static func date(_ ms: Int64) -> String { ChartPeriods.dateText(ChartPeriods.dayNumber(ms)) }
}

extension SubscriptionBackend {
    /// The overview's figures from the backend's own tables, at the store's clock as the backend
    /// knows it; of one environment (`Production`, `Sandbox`) or, when nil, of both.
    public func overview(environment: String?) async throws -> OverviewFigures {
        let now = try await storeNowMs()
        let since = OverviewRules.readStart(nowMs: now)
        var figures = OverviewRules.figures(OverviewRules.Input(
            transactions: try await database.overviewTransactions(environment: environment, sinceMs: since),
            renewals: try await database.overviewRenewals(environment: environment, sinceMs: since),
            latestPurchases: try await database.latestPurchases(environment: environment, sinceMs: since),
            customerStarts: try await database.customerStarts(environment: environment, sinceMs: since),
            customers: try await database.customerCount(),
            nowMs: now, environment: environment))
        figures.refundRequests = RefundRequestReport.Counts(try await database.refundRequestStates(environment: environment))
        return figures
    }
}
