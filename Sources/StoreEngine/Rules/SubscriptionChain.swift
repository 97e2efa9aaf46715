import StoreModel

/// One customer's subscription in one group: every period, renewal, plan change and lapse of it
/// share one `originalTransactionId`. This is the state the lifecycle rules read and write;
/// renewal info and the subscription status are views of it.
public struct SubscriptionChain: Codable, Sendable, Equatable {
    /// Where the subscription stands; `status` maps it to the Server API's status 1–5.
    public enum State: String, Codable, Sendable {
        case active, gracePeriod, billingRetry, expired, revoked
    }

    /// A price increase the developer announced: pending until the customer consents, or
    /// accepted (consented, or notify-only).
    public struct PriceIncrease: Codable, Sendable, Equatable {
        /// The announced renewal price, in milliunits of the chain's currency.
        public var newPriceMilliunits: Int64
        /// Whether the customer must agree before the new price applies (else it only notifies).
        public var needsConsent: Bool
        /// Whether the new price applies to coming renewals.
        public var accepted: Bool
    }

    /// An offer that still applies to coming periods (pay-as-you-go offers span several).
    public struct ActiveOffer: Codable, Sendable, Equatable {
        /// Introductory, promotional, offer code or win-back, as `offerType` in the transaction.
        public var type: OfferType
        /// The offer's ID or reference name; nil for an introductory offer, which has none.
        public var identifier: String?
        /// Free trial, pay as you go or pay up front, as `offerDiscountType` in the transaction.
        public var discountType: OfferDiscountType
        /// One billing period of the offer (ISO 8601), which each discounted renewal runs for.
        public var periodISO: String
        /// The offer's whole duration (ISO 8601), reported as `offerPeriod` in transactions and renewal info.
        public var offerPeriodISO: String
        /// What one discounted period costs, in milliunits of the storefront's currency.
        public var priceMilliunits: Int64
        /// Discounted renewals still to come after the current period; 0 when the offer ends with it.
        public var remainingPeriods: Int
    }

    /// A monthly plan with a 12-month commitment (see `BillingPlanCommitment`).
    public struct Commitment: Codable, Sendable, Equatable {
        /// The billing period now running, 1 … `totalPeriods`.
        public var periodNumber: Int
        /// How many monthly periods the commitment has in all.
        public var totalPeriods: Int
        /// When the whole commitment ends.
        public var expiresMs: Int64
        /// The whole commitment's price and one month's, in milliunits.
        public var priceMilliunits: Int64
        /// What each monthly period of the commitment is billed.
        public var monthlyPriceMilliunits: Int64
        /// Whether the commitment renews when it ends (the customer's auto-renew choice).
        public var autoRenew: Bool
    }

    /// What the scheduler must do next for this chain, and when.
    public enum NextEvent: String, Codable, Sendable {
        case renewal, retryAttempt, gracePeriodEnd, billingRetryEnd
    }

    /// The ID shared by every transaction of the chain: its first purchase's transaction ID.
    public var originalTransactionId: Int64
    /// The app the subscription belongs to.
    public var bundleId: String
    /// The store customer who owns it (the family member, for a shared copy).
    public var customer: String
    /// The subscription group; a customer has one chain per group.
    public var groupId: String
    /// When the first period was bought (`originalPurchaseDate`).
    public var originalPurchaseMs: Int64
    /// The product of the current (or last) period.
    public var productId: String
    /// The product the next renewal will be for: differs after a downgrade or crossgrade.
    public var autoRenewProductId: String
    /// The customer's auto-renew choice (`autoRenewStatus`); off means expire at period end.
    public var autoRenewEnabled: Bool
    /// The transaction of the current (or last) period.
    public var latestTransactionId: Int64
    /// When the current period began.
    public var periodStartMs: Int64
    /// When the current period ends (`expiresDate`); renewal is scheduled for then.
    public var expiresMs: Int64
    /// Where the subscription stands now; `isEntitled` and `status` derive from it.
    public var state: State
    /// When the billing grace period ends, while in one (`gracePeriodExpiresDate`).
    public var gracePeriodExpiresMs: Int64?
    /// When the App Store stops retrying a failed charge, while it retries.
    public var billingRetryEndsMs: Int64?
    /// Why the subscription expired or will (`expirationIntent`); nil while it is set to renew.
    public var expirationIntent: ExpirationIntent?
    /// The start of the current series of periods, ignoring lapses of 60 days or less
    /// (`recentSubscriptionStartDate`).
    public var recentSubscriptionStartMs: Int64
    /// The subscription's storefront (ISO 3166-1 alpha-3), which its renewals carry.
    public var storefront: String
    /// Apple's numeric ID of that storefront (`storefrontId`).
    public var storefrontId: String
    /// The currency the subscription is billed in (ISO 4217).
    public var currency: String
    /// What this subscriber pays per period at the regular price.
    public var renewalPriceMilliunits: Int64
    /// A price increase announced for this subscriber, until the customer answers or a new period starts.
    public var priceIncrease: PriceIncrease?
    /// The offer the current period runs under, if any; pay-as-you-go offers carry on to later periods.
    public var offer: ActiveOffer?
    /// The app's UUID for the customer, copied into each renewal's transaction.
    public var appAccountToken: String?
    /// The customer's app transaction ID for this app, carried by every transaction of the chain.
    public var appTransactionId: String
    /// `PURCHASED` for the buyer's chain, `FAMILY_SHARED` for a family member's copy.
    public var ownership: InAppOwnershipType
    /// For a family-shared copy: the purchaser's chain it mirrors.
    public var sharedFromOriginalId: Int64?
    /// Renewal-date extensions granted, by date, for the yearly limit.
    public var extensionDatesMs: [Int64]
    /// What the scheduler does next for the chain; nil when nothing is due (expired, revoked).
    public var nextEvent: NextEvent?
    /// When `nextEvent` is due, on the world's clock.
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

    /// Sets the next scheduled event; scheduling nil clears its time too.
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
