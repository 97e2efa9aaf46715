import Crypto
import Foundation

/// An A/B test of two offerings: each new customer of the app who asks for offerings while it
/// runs is put in `control` or `treatment` by a stable hash of the experiment and their ID, and
/// stays there. Customers the backend knew before it started keep the app's current offering.
public struct Experiment: Codable, Sendable, Equatable {
    public var id: String
    public var bundleId: String
    /// The offering the control half sees (usually the app's current one).
    public var control: String
    /// The offering the other half sees.
    public var treatment: String
    /// When it started, on customer info's clock (ms).
    public var startMs: Int64
    /// When it was stopped; nil while it runs.
    public var stopMs: Int64?

    enum CodingKeys: String, CodingKey { case id, bundleId, control, treatment, startMs, stopMs }

    /// Absent values are written as null, so every field is always there (and every column in a row).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(bundleId, forKey: .bundleId)
        try c.encode(control, forKey: .control)
        try c.encode(treatment, forKey: .treatment)
        try c.encode(startMs, forKey: .startMs)
        try c.encode(stopMs, forKey: .stopMs)
    }
}

/// The rules of an experiment: who sees which variant, and what each variant earned. Pure.
enum ExperimentRules {
    static let control = "control", treatment = "treatment"

    /// The customer's variant: the first eight bytes of SHA-256("experiment|appUserId"), even → control.
    /// Stable on every instance and every call, and even between the two halves.
    static func variant(experimentId: String, appUserId: String) -> String {
        let digest = SHA256.hash(data: Data("\(experimentId)|\(appUserId)".utf8))
        let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return number % 2 == 0 ? control : treatment
    }

    /// Whether a customer first seen at `firstSeenMs` is new to an experiment started at `startMs`.
    static func isNew(firstSeenMs: Int64, experiment: Experiment) -> Bool {
        firstSeenMs >= experiment.startMs
    }

    /// One enrolled customer and their purchases in the experiment's app.
    struct Enrolled {
        var appUserId: String
        var variant: String
        var enrolledMs: Int64
        var transactions: [TransactionRow]
    }

    /// Each variant's figures: purchases made at or after the customer's enrollment count; a
    /// refunded (revoked) transaction earns nothing.
    static func report(_ experiment: Experiment, enrolled: [Enrolled]) -> ExperimentReport {
        var variants: [String: ExperimentReport.Variant] = [:]
        for (name, offering) in [(control, experiment.control), (treatment, experiment.treatment)] {
            let members = enrolled.filter { $0.variant == name }
            var figures = ExperimentReport.Variant(variant: name, offeringId: offering, customers: members.count)
            var revenue: [String: Int64] = [:]
            for member in members {
                let after = member.transactions.filter { $0.purchaseMs >= member.enrolledMs }
                let paid = after.filter { ($0.price ?? 0) > 0 && $0.offerDiscountType != EventRules.freeTrial }
                if !paid.isEmpty { figures.conversions += 1 }
                let trials = after.filter { $0.offerDiscountType == EventRules.freeTrial }
                if !trials.isEmpty {
                    figures.trialStarts += 1
                    let trialChains = Set(trials.map(\.originalTransactionId))
                    if paid.contains(where: { trialChains.contains($0.originalTransactionId) }) { figures.trialConversions += 1 }
                }
                for t in after where t.revocationMs == nil {
                    guard let price = t.price, price > 0, let currency = t.currency else { continue }
                    revenue[currency, default: 0] += price
                }
            }
            figures.revenue = revenue.keys.sorted().map { CurrencyTotal(currency: $0, milliunits: revenue[$0]!) }
            figures.realizedLtvPerCustomer = figures.revenue.map {
                CurrencyTotal(currency: $0.currency, milliunits: members.isEmpty ? 0 : $0.milliunits / Int64(members.count))
            }
            figures.conversionRate = members.isEmpty ? nil : Double(figures.conversions) / Double(members.count)
            variants[name] = figures
        }
        return ExperimentReport(experiment: experiment, variants: [variants[control]!, variants[treatment]!])
    }
}

/// An amount of one currency in Apple's milliunits (9990 = 9.99).
public struct CurrencyTotal: Codable, Sendable, Equatable {
    public var currency: String
    public var milliunits: Int64
}

/// `GET /v1/admin/experiments/{id}`: the experiment and each variant's figures, with its sample size.
public struct ExperimentReport: Codable, Sendable, Equatable {
    public var experiment: Experiment
    /// Control first, then treatment.
    public var variants: [Variant]

    public struct Variant: Codable, Sendable, Equatable {
        public var variant: String
        public var offeringId: String
        /// The sample size: customers enrolled in this variant.
        public var customers: Int
        /// Customers with a paid purchase since enrollment.
        public var conversions: Int = 0
        /// `conversions` ÷ `customers`; nil with no customers.
        public var conversionRate: Double? = nil
        /// Customers who started a free trial since enrollment.
        public var trialStarts: Int = 0
        /// Of those, customers who then paid for the same subscription.
        public var trialConversions: Int = 0
        /// What the variant's customers paid since enrollment, refunds taken out, per currency.
        public var revenue: [CurrencyTotal] = []
        /// `revenue` ÷ `customers` (milliunits, rounded down): realized lifetime value so far.
        public var realizedLtvPerCustomer: [CurrencyTotal] = []

        /// Absent values are written as null, so every field is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(variant, forKey: .variant)
            try c.encode(offeringId, forKey: .offeringId)
            try c.encode(customers, forKey: .customers)
            try c.encode(conversions, forKey: .conversions)
            try c.encode(conversionRate, forKey: .conversionRate)
            try c.encode(trialStarts, forKey: .trialStarts)
            try c.encode(trialConversions, forKey: .trialConversions)
            try c.encode(revenue, forKey: .revenue)
            try c.encode(realizedLtvPerCustomer, forKey: .realizedLtvPerCustomer)
        }
    }
}
