/// Builds `CustomerInfo` from the rows the backend holds. The building is pure (rows and a
/// clock in, JSON-ready value out); `load` only reads.
enum CustomerInfoBuilder {
    static let managementURL = "https://apps.apple.com/account/subscriptions"

    /// `appUserId` may be an alias: the info is its customer's.
    static func load(appUserId: String, database: BackendDatabase, apps: [AppConfiguration], wallMs: Int64) async throws -> CustomerInfo? {
        guard let customer = try await database.customer(named: appUserId) else { return nil }
        let id = customer.appUserId
        let transactions = try await database.transactions(appUserId: id)
        let renewals = try await database.renewals(appUserId: id)
        let clock = try await database.storeClock()
        let extras = try await database.customerExtras(appUserId: id)
        return build(customer: customer, transactions: transactions, renewals: renewals, apps: apps,
                     nowMs: max(wallMs, clock ?? 0), extras: extras)
    }

    static func build(customer: CustomerRow, transactions: [TransactionRow], renewals: [RenewalRow],
                      apps: [AppConfiguration], nowMs: Int64, extras: CustomerExtras = .init()) -> CustomerInfo {
        let (attributes, grants, aliases, appTransactions) = (extras.attributes, extras.grants, extras.aliases, extras.appTransactions)
        let renewalByOriginal = Dictionary(renewals.map { ("\($0.environment)|\($0.originalTransactionId)", $0) }, uniquingKeysWith: { a, _ in a })
        let chains = Dictionary(grouping: transactions.filter { $0.type == EventRules.autoRenewable },
                                by: { "\($0.environment)|\($0.originalTransactionId)" })
        var subscriptions: [CustomerInfo.Subscription] = []
        for (key, chain) in chains {
            guard let latest = chain.max(by: { ($0.purchaseMs, $0.transactionId) < ($1.purchaseMs, $1.transactionId) }) else { continue }
            subscriptions.append(subscription(latest: latest, renewal: renewalByOriginal[key], nowMs: nowMs))
        }
        subscriptions.sort { ($0.purchaseDate, $0.originalTransactionId) < ($1.purchaseDate, $1.originalTransactionId) }
        let nonSubscriptions = transactions.filter { $0.type != EventRules.autoRenewable }
            .sorted { ($0.purchaseMs, $0.transactionId) < ($1.purchaseMs, $1.transactionId) }
            .map { t in
                CustomerInfo.NonSubscription(
                    transactionId: t.transactionId, productId: t.productId, type: t.type, bundleId: t.bundleId,
                    purchaseDate: t.purchaseMs, revocationDate: t.revocationMs, price: t.price, currency: t.currency,
                    environment: t.environment, ownershipType: t.ownership, store: appStore, refundedAt: refundedAt(t))
            }

        var entitlements: [String: CustomerInfo.Entitlement] = [:]
        func offer(_ name: String, _ candidate: CustomerInfo.Entitlement) {
            guard let current = entitlements[name] else { entitlements[name] = candidate; return }
            // Active beats inactive; then the later expiry (nil = never expires) wins.
            let rank = { (e: CustomerInfo.Entitlement) in (e.isActive ? 1 : 0, e.expiresDate ?? Int64.max, e.purchaseDate) }
            if rank(candidate) > rank(current) { entitlements[name] = candidate }
        }
        for s in subscriptions {
            guard let app = apps.first(where: { $0.bundleId == s.bundleId }) else { continue }
            let name = Entitlements.name(productId: s.productId, groupId: s.subscriptionGroupIdentifier, type: EventRules.autoRenewable, app: app)
            offer(name, CustomerInfo.Entitlement(
                isActive: s.isActive, productId: s.productId, expiresDate: s.expiresDate, purchaseDate: s.purchaseDate,
                willRenew: s.willRenew, periodType: s.periodType, billingIssueDetectedAt: s.billingIssueDetectedAt,
                gracePeriodExpiresDate: s.gracePeriodExpiresDate, environment: s.environment, ownershipType: s.ownershipType,
                bundleId: s.bundleId, store: appStore))
        }
        for t in transactions where t.type != EventRules.autoRenewable {
            guard let app = apps.first(where: { $0.bundleId == t.bundleId }),
                  Entitlements.grantsEntitlement(type: t.type, productId: t.productId, app: app) else { continue }
            let name = Entitlements.name(productId: t.productId, groupId: nil, type: t.type, app: app)
            let active = t.revocationMs == nil && (t.expiresMs.map { $0 > nowMs } ?? true)
            offer(name, CustomerInfo.Entitlement(
                isActive: active, productId: t.productId, expiresDate: t.expiresMs, purchaseDate: t.purchaseMs, willRenew: false,
                periodType: "normal", billingIssueDetectedAt: nil, gracePeriodExpiresDate: nil, environment: t.environment,
                ownershipType: t.ownership, bundleId: t.bundleId, store: appStore))
        }
        for grant in grants { offer(grant.entitlement, PromotionalGrant.entitlement(grant, nowMs: nowMs)) }
        return CustomerInfo(
            appUserId: customer.appUserId, firstSeen: customer.firstSeenMs,
            originalAppUserId: customer.originalAppUserId ?? customer.appUserId, aliases: aliases, lastSeen: customer.lastSeenMs,
            originalApplicationVersion: firstDownload(appTransactions)?.originalApplicationVersion,
            originalPurchaseDate: firstDownload(appTransactions)?.originalPurchaseMs,
            subscriberAttributes: Dictionary(attributes.map { ($0.key, CustomerInfo.Attribute(value: $0.value, updatedAt: $0.updatedMs)) },
                                             uniquingKeysWith: { a, _ in a }),
            requestDate: nowMs, managementURL: managementURL,
            entitlements: entitlements, subscriptions: subscriptions, nonSubscriptions: nonSubscriptions)
    }

    static let appStore = "app_store"

    /// The app transaction of the customer's first download (over apps and environments).
    static func firstDownload(_ rows: [AppTransactionRow]) -> AppTransactionRow? {
        rows.min { ($0.originalPurchaseMs, $0.bundleId, $0.environment) < ($1.originalPurchaseMs, $1.bundleId, $1.environment) }
    }

    /// A refund's date: the revocation, unless Family Sharing took the purchase away.
    static func refundedAt(_ t: TransactionRow) -> Int64? {
        t.revocationType == "FAMILY_REVOKE" ? nil : t.revocationMs
    }

    /// Apple's status for the subscription, from its latest transaction and renewal info, at `nowMs`.
    static func subscription(latest: TransactionRow, renewal: RenewalRow?, nowMs: Int64) -> CustomerInfo.Subscription {
        let expires = latest.expiresMs ?? 0
        let inRetry = renewal?.inBillingRetry ?? false
        let graceUntil = inRetry ? renewal?.gracePeriodExpiresMs : nil
        let status: Int
        if latest.revocationMs != nil {
            status = 5
        } else if inRetry {
            status = (graceUntil ?? 0) > nowMs ? 4 : 3
        } else if expires > nowMs {
            status = 1
        } else {
            status = 2
        }
        return CustomerInfo.Subscription(
            originalTransactionId: latest.originalTransactionId, latestTransactionId: latest.transactionId,
            productId: latest.productId, subscriptionGroupIdentifier: latest.groupId, bundleId: latest.bundleId,
            status: status, isActive: status == 1 || status == 4, purchaseDate: latest.purchaseMs,
            originalPurchaseDate: latest.originalPurchaseMs, expiresDate: latest.expiresMs,
            willRenew: renewal?.autoRenewStatus == 1 && status != 5 && status != 2,
            autoRenewProductId: renewal?.autoRenewProductId, periodType: Entitlements.periodType(latest),
            billingIssueDetectedAt: inRetry ? latest.expiresMs : nil, gracePeriodExpiresDate: graceUntil,
            revocationDate: latest.revocationMs, price: latest.price, currency: latest.currency,
            environment: latest.environment, ownershipType: latest.ownership, store: appStore,
            unsubscribeDetectedAt: renewal?.autoRenewStatus == 0 ? renewal?.unsubscribeDetectedMs : nil, refundedAt: refundedAt(latest))
    }
}
