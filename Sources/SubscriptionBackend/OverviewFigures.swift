/// `GET /v1/admin/overview` and the dashboard's overview page: a subscription business's
/// health at a glance, computed from the backend's own tables (no call to the store), judged at
/// the store's clock as the backend knows it. The figures are RevenueCat's overview and charts
/// (docs/backend.md, Dashboard, says how each is defined and where the definition comes from).
/// Money stays per currency, never converted; rates are fractions (0.25 is 25 %) with the counts
/// they divide, and `null` when there was nothing to divide by.
public struct OverviewFigures: Codable, Sendable, Equatable {
    /// The instant the figures are judged at (ms): the later of the backend's clock and the
    /// latest `signedDate` it received, as in customer info's `requestDate`.
    public var asOf: Int64
    /// `asOf` minus 28 days: the window of the revenue, new customers and the three rates.
    public var windowStart: Int64
    /// Production or Sandbox when the figures are of one environment; null for both.
    public var environment: String?
    /// Paid auto-renewable subscriptions active now (cancelled ones until they expire, those in
    /// a billing grace period included); free trials are not counted here.
    public var activeSubscriptions: Int
    /// Free trials active now (cancelled ones and those in a grace period included).
    public var activeTrials: Int
    /// Monthly recurring revenue per currency: each active paid subscription's price normalized
    /// to a month (yearly ÷ 12, six-monthly ÷ 6, quarterly ÷ 3, two-monthly ÷ 2, weekly × 52 ÷ 12).
    public var mrr: [CurrencyAmount]
    /// Active paid subscriptions counted in `mrr` as monthly because their period is not a
    /// calendar one (an accelerated test time rate, where 5 minutes may be a month or a year).
    public var mrrPeriodsAssumedMonthly: Int
    /// Revenue of the last 28 days per currency: the prices of the paid purchases and renewals
    /// bought in the window, before Apple's commission and taxes, refunded ones left out.
    public var revenueLast28Days: [CurrencyAmount]
    /// Customers first seen in the last 28 days (first seen: their first purchase on the store's
    /// clock, else when the backend first heard of them).
    public var newCustomers: Int
    /// Every customer the backend knows, in every environment.
    public var customers: Int
    /// Free trials that ended in the window (`of`) and how many of them became a paid period.
    public var trialConversion: Ratio
    /// Paid subscriptions active at the window's start (`of`) and how many of them are not
    /// active now.
    public var churn: Ratio
    /// Paid transactions bought in the window (`of`) and how many of them were refunded.
    public var refundRate: Ratio
    /// One entry per UTC day, the last 30 days up to today, for the charts.
    public var days: [Day]
    /// Refund requests (CONSUMPTION_REQUEST) ever received, answered by refund control, and
    /// decided by the App Store.
    public var refundRequests = RefundRequestReport.Counts(requested: 0, answered: 0, granted: 0, declined: 0)

    /// Every figure at once; `OverviewRules` computes them.
    public init(asOf: Int64, windowStart: Int64, environment: String?, activeSubscriptions: Int, activeTrials: Int,
                mrr: [CurrencyAmount], mrrPeriodsAssumedMonthly: Int, revenueLast28Days: [CurrencyAmount], newCustomers: Int,
                customers: Int, trialConversion: Ratio, churn: Ratio, refundRate: Ratio, days: [Day]) {
        self.asOf = asOf
        self.windowStart = windowStart
        self.environment = environment
        self.activeSubscriptions = activeSubscriptions
        self.activeTrials = activeTrials
        self.mrr = mrr
        self.mrrPeriodsAssumedMonthly = mrrPeriodsAssumedMonthly
        self.revenueLast28Days = revenueLast28Days
        self.newCustomers = newCustomers
        self.customers = customers
        self.trialConversion = trialConversion
        self.churn = churn
        self.refundRate = refundRate
        self.days = days
    }

    enum CodingKeys: String, CodingKey {
        case asOf, windowStart, environment, activeSubscriptions, activeTrials, mrr, mrrPeriodsAssumedMonthly,
             revenueLast28Days, newCustomers, customers, trialConversion, churn, refundRate, days, refundRequests
    }

    /// Absent values are written as null, so every field is always there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(asOf, forKey: .asOf)
        try c.encode(windowStart, forKey: .windowStart)
        try c.encode(environment, forKey: .environment)
        try c.encode(activeSubscriptions, forKey: .activeSubscriptions)
        try c.encode(activeTrials, forKey: .activeTrials)
        try c.encode(mrr, forKey: .mrr)
        try c.encode(mrrPeriodsAssumedMonthly, forKey: .mrrPeriodsAssumedMonthly)
        try c.encode(revenueLast28Days, forKey: .revenueLast28Days)
        try c.encode(newCustomers, forKey: .newCustomers)
        try c.encode(customers, forKey: .customers)
        try c.encode(trialConversion, forKey: .trialConversion)
        try c.encode(churn, forKey: .churn)
        try c.encode(refundRate, forKey: .refundRate)
        try c.encode(days, forKey: .days)
        try c.encode(refundRequests, forKey: .refundRequests)
    }

    /// An amount of one currency. `milliunits` is exact for revenue (Apple's prices are integers
    /// of milliunits) and rounded for MRR; `amount` is rounded to two decimals.
    public struct CurrencyAmount: Codable, Sendable, Equatable {
        /// ISO 4217 code; amounts of different currencies are never added together.
        public var currency: String
        /// In the currency's units, rounded to two decimals, for display.
        public var amount: Double
        /// Thousandths of the currency unit, as Apple's prices are.
        public var milliunits: Int64
        /// The subscriptions (MRR) or transactions (revenue) that make it up.
        public var count: Int

        /// Takes a sum that may be fractional (MRR divides prices) and derives both forms from it.
        public init(currency: String, milliunits: Double, count: Int) {
            self.currency = currency
            self.milliunits = Int64(milliunits.rounded())
            self.amount = (milliunits / 10).rounded() / 100
            self.count = count
        }
    }

    /// `part` of `of`, and their quotient (null when `of` is 0).
    public struct Ratio: Codable, Sendable, Equatable {
        /// How many of `of` the rate counts: converted trials, churned subscriptions, refunded purchases.
        public var part: Int
        /// What `part` is counted out of; 0 makes `rate` null.
        public var of: Int
        /// `part ÷ of` as a fraction; null when `of` is 0.
        public var rate: Double?

        /// Works out `rate`, leaving it nil when `whole` is 0.
        public init(part: Int, of whole: Int) {
            self.part = part
            self.of = whole
            self.rate = whole == 0 ? nil : Double(part) / Double(whole)
        }

        enum CodingKeys: String, CodingKey { case part, of, rate }

        /// Writes `rate` as null rather than leaving it out, so the key is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(part, forKey: .part)
            try c.encode(of, forKey: .of)
            try c.encode(rate, forKey: .rate)
        }
    }

    /// One UTC day of the charts; today's values are judged at `asOf`, earlier days at their end.
    public struct Day: Codable, Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var date: String
        /// The day's start, 00:00 UTC.
        public var startMs: Int64
        /// Paid subscriptions active at the day's end (at `asOf` for today).
        public var activeSubscriptions: Int
        /// Free trials active then that were not also paid.
        public var activeTrials: Int
        /// Customers first seen during the day.
        public var newCustomers: Int
        /// Revenue of the purchases and renewals bought that day, per currency.
        public var revenue: [CurrencyAmount]
    }
}
