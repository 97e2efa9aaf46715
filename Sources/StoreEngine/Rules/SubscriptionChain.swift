import StoreModel

/// One customer's subscription in one group: every period, renewal, plan change and lapse of it
/// share one `originalTransactionId`. This is the state the lifecycle rules read and write;
/// renewal info and the subscription status are views of it.
public struct SubscriptionChain: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case active, gracePeriod, billingRetry, expired, revoked
    }

    /// A price increase the developer announced: pending until the customer consents, or
    /// accepted (consented, or notify-only).
    public struct PriceIncrease: Codable, Sendable, Equatable {
        public var newPriceMilliunits: Int64
        public var needsConsent: Bool
        public var accepted: Bool
    }

    /// An offer that still applies to coming periods (pay-as-you-go offers span several).
    public struct ActiveOffer: Codable, Sendable, Equatable {
        public var type: OfferType
        public var identifier: String?
        public var discountType: OfferDiscountType
        public var periodISO: String
        public var offerPeriodISO: String
        public var priceMilliunits: Int64
        public var remainingPeriods: Int
    }

    /// A monthly plan with a 12-month commitment (see `BillingPlanCommitment`).
    public struct Commitment: Codable, Sendable, Equatable {
        /// The billing period now running, 1 … `totalPeriods`.
        public var periodNumber: Int
        public var totalPeriods: Int
        public var expiresMs: Int64
        /// The whole commitment's price and one month's, in milliunits.
        public var priceMilliunits: Int64
        public var monthlyPriceMilliunits: Int64
        /// Whether the commitment renews when it ends (the customer's auto-renew choice).
        public var autoRenew: Bool
    }

    /// What the scheduler must do next for this chain, and when.
    public enum NextEvent: String, Codable, Sendable {
        case renewal, retryAttempt, gracePeriodEnd, billingRetryEnd
    }

    public var originalTransactionId: Int64
    public var bundleId: String
    public var customer: String
    public var groupId: String
    public var originalPurchaseMs: Int64
    /// The product of the current (or last) period.
    public var productId: String
    /// The product the next renewal will be for: differs after a downgrade or crossgrade.
    public var autoRenewProductId: String
    public var autoRenewEnabled: Bool
    public var latestTransactionId: Int64
    public var periodStartMs: Int64
    public var expiresMs: Int64
    public var state: State
    public var gracePeriodExpiresMs: Int64?
    public var billingRetryEndsMs: Int64?
    public var expirationIntent: ExpirationIntent?
    public var recentSubscriptionStartMs: Int64
    public var storefront: String
    public var storefrontId: String
    public var currency: String
    /// What this subscriber pays per period at the regular price.
    public var renewalPriceMilliunits: Int64
    public var priceIncrease: PriceIncrease?
    public var offer: ActiveOffer?
    public var appAccountToken: String?
    public var appTransactionId: String
    public var ownership: InAppOwnershipType
    /// For a family-shared copy: the purchaser's chain it mirrors.
    public var sharedFromOriginalId: Int64?
    /// Renewal-date extensions granted, by date, for the yearly limit.
    public var extensionDatesMs: [Int64]
    public var nextEvent: NextEvent?
    public var nextEventMs: Int64?
    /// The change number of the last write, so stale writes never overwrite newer state.
    public var version: Int64
    /// Present while the subscription is billed monthly under a 12-month commitment.
    public var commitment: Commitment? = nil

    /// Whether the customer has access right now (grace periods keep access; billing retry doesn't).
    public var isEntitled: Bool { state == .active || state == .gracePeriod }

    /// Subscription status 1–5 of the Server API and notifications.
    public var status: SubscriptionStatus {
        switch state {
        case .active: .active
        case .gracePeriod: .billingGracePeriod
        case .billingRetry: .billingRetry
        case .expired: .expired
        case .revoked: .revoked
        }
    }

    public mutating func schedule(_ event: NextEvent?, at ms: Int64?) {
        nextEvent = event
        nextEventMs = event == nil ? nil : ms
    }
}

extension SubscriptionChain {
    /// Starts a fresh paid (or offer) period in `productId` now: what a first purchase after a
    /// lapse, an upgrade and an immediate crossgrade share. Billing issues, price increases and
    /// pending plan changes of the old period no longer apply.
    public mutating func beginPeriod(productId: String, transactionId: Int64, startMs: Int64, expiresMs: Int64,
                                     regularPriceMilliunits: Int64, offer: ActiveOffer?) {
        self.productId = productId
        autoRenewProductId = productId
        autoRenewEnabled = true
        state = .active
        expirationIntent = nil
        gracePeriodExpiresMs = nil
        billingRetryEndsMs = nil
        priceIncrease = nil
        self.offer = offer
        periodStartMs = startMs
        self.expiresMs = expiresMs
        renewalPriceMilliunits = regularPriceMilliunits
        commitment = nil
        latestTransactionId = transactionId
        schedule(.renewal, at: expiresMs)
    }
}
