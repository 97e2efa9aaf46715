import Crypto
import Foundation

/// Applies verified App Store data inside one write transaction: newer signings replace older
/// ones, customers are linked, and the events each change makes are recorded with their outbox
/// rows. The rules are here; what is read and written is `LedgerStore`'s.
struct LedgerWriter {
    let store: LedgerStore
    let app: AppConfiguration
    let webhooks: [WebhookTarget]
    let nowMs: Int64
    /// Events recorded by this transaction, in order.
    private(set) var events: [EventRow] = []
    /// Set when a posted purchase stayed with the identified customer who had it (`keep` policy).
    private(set) var keptWith: String?

    /// Who is behind a transaction being applied, and so what may become of its link.
    enum Source: Equatable {
        /// The App Store's own data (a notification): it names no app user, only a token.
        case appStore
        /// Transaction History read for this customer: the same Apple account's purchases.
        case sameAccount(String)
        /// The app posted it for this customer: a claim, which may merge, transfer or be refused.
        case app(String)

        var user: String? {
            switch self {
            case .appStore: nil
            case .sameAccount(let user), .app(let user): user
            }
        }
    }

    init(store: LedgerStore, app: AppConfiguration, webhooks: [WebhookTarget], nowMs: Int64) {
        self.store = store
        self.app = app
        self.webhooks = webhooks
        self.nowMs = nowMs
    }

    // MARK: notifications

    /// What applying `notification` reads, for a batch to load at once.
    static func keys(_ notification: VerifiedNotification, app: AppConfiguration) -> LedgerKeys {
        var keys = LedgerKeys(notifications: [notification.uuid])
        keys.cursors.append(CursorKey(bundleId: app.bundleId, environment: notification.environment))
        if let transaction = notification.transaction { keys = keys.adding(transaction, app: app) }
        if let original = notification.renewal?.fields.originalTransactionId {
            keys.chains.append(ChainKey(environment: notification.renewal?.fields.environment ?? "", original: original))
        }
        return keys
    }

    /// False when the notification was applied before (same `notificationUUID`).
    mutating func apply(_ notification: VerifiedNotification) async throws -> Bool {
        if try await store.notificationSeen(notification.uuid) { return false }
        store.insert(NotificationRow(
            notificationUUID: notification.uuid, bundleId: app.bundleId, environment: notification.environment,
            type: notification.type, subtype: notification.subtype, signedMs: notification.signedDate, receivedMs: nowMs))
        if let transaction = notification.transaction { try await apply(transaction, from: .appStore) }
        if let renewal = notification.renewal { try await apply(renewal) }
        if notification.type == "CONSUMPTION_REQUEST", let transaction = notification.transaction {
            try await refundRequested(notification, transaction: transaction)
        }
        if notification.type == "PRICE_INCREASE", let subtype = notification.subtype,
           let original = notification.renewal?.fields.originalTransactionId ?? notification.transaction?.fields.originalTransactionId {
            try await record(EventRules.Candidate(
                type: .priceIncrease, key: "price-increase|\(notification.environment)|\(original)|\(subtype)|\(notification.signedDate)",
                storeTimeMs: notification.signedDate, environment: notification.environment, originalTransactionId: original,
                transaction: nil, productId: notification.renewal?.fields.autoRenewProductId), priceIncreaseStatus: subtype)
        }
        if notification.type == "REFUND_DECLINED", let id = notification.transaction?.fields.transactionId {
            store.decideRefundRequests(environment: notification.environment, transactionId: id, outcome: "declined",
                                       atMs: notification.signedDate)
        }
        if ["EXPIRED", "GRACE_PERIOD_EXPIRED"].contains(notification.type),
           let original = notification.transaction?.fields.originalTransactionId ?? notification.renewal?.fields.originalTransactionId {
            let latest = try await store.latestTransaction(environment: notification.environment, original: original)
            try await record(EventRules.expiration(environment: notification.environment, originalTransactionId: original,
                                                   latest: latest, at: notification.signedDate))
        }
        try await advanceCursor(environment: notification.environment, notificationMs: notification.signedDate,
                                clockMs: notification.signedDate)
        return true
    }

    // MARK: transactions

    /// What `claim` and `apply` of a transaction the app posts for `appUserId` read.
    static func keys(_ transaction: SignedTransaction, appUserId: String, app: AppConfiguration) -> LedgerKeys {
        LedgerKeys(customers: [appUserId]).adding(transaction, app: app)
    }

    /// The poster claims the transaction's `appAccountToken` if no one has; a token another
    /// customer claimed stays theirs (the purchase itself then moves by the transfer policy).
    mutating func claim(token: String?, for appUserId: String) async throws {
        guard let token = token?.lowercased(), !token.isEmpty else { return }
        if try await store.alias(token: token) != nil { return }
        store.insert(AliasRow(appAccountToken: token, appUserId: appUserId))
    }

    /// Stores the transaction if it is newer than what we hold, and links it (`link`).
    mutating func apply(_ signed: SignedTransaction, from source: Source) async throws {
        let row = Self.row(signed, groupId: signed.fields.subscriptionGroupIdentifier)
        // The clock first, so a customer this purchase makes is first seen no earlier than its signing.
        try await advanceCursor(environment: row.environment, notificationMs: nil, clockMs: row.signedMs)
        try await link(environment: row.environment, original: row.originalTransactionId, source: source, token: row.appAccountToken)
        let old = try await store.transaction(environment: row.environment, id: row.transactionId, original: row.originalTransactionId)
        if let old, !EventRules.isNewer(signedMs: row.signedMs, jws: row.jws, than: old.signedMs, old.jws) { return }
        let previous = try await store.previousTransaction(
            environment: row.environment, original: row.originalTransactionId, before: row.purchaseMs)
        try await store.replace(row)
        for candidate in EventRules.transactionChanged(old: old, new: row, previousInChain: previous) {
            try await record(candidate)
        }
        if old?.revocationMs == nil, let revoked = row.revocationMs, row.revocationType != "FAMILY_REVOKE" {
            store.decideRefundRequests(environment: row.environment, transactionId: row.transactionId, outcome: "granted", atMs: revoked)
        }
    }

    // MARK: refund requests

    /// A CONSUMPTION_REQUEST: the request is recorded for `RefundResponder` (pending unless the
    /// app's refund control is off) and a REFUND_REQUESTED event is made.
    private mutating func refundRequested(_ notification: VerifiedNotification, transaction: SignedTransaction) async throws {
        let row = Self.row(transaction, groupId: transaction.fields.subscriptionGroupIdentifier)
        let pending = app.refundControl.policy != .off
        store.insert(RefundRequestRow(
            notificationUUID: notification.uuid, bundleId: app.bundleId, environment: notification.environment,
            transactionId: row.transactionId, originalTransactionId: row.originalTransactionId,
            reason: notification.consumptionRequestReason, requestedMs: notification.signedDate,
            deadlineMs: notification.signedDate + RefundControlRules.answerWindowMs,
            state: pending ? RefundRequestState.pending : RefundRequestState.off, attempts: 0, nextAttemptMs: nowMs,
            lastStatus: nil, lastError: nil, answeredMs: nil, refundPreference: nil, outcome: nil, outcomeMs: nil))
        try await record(EventRules.Candidate(
            type: .refundRequested, key: "refund-request|\(notification.environment)|\(notification.uuid)",
            storeTimeMs: notification.signedDate, environment: notification.environment,
            originalTransactionId: row.originalTransactionId, transaction: row, productId: row.productId),
            refundRequest: .init(reason: notification.consumptionRequestReason, refundPreference: nil,
                                 deadlineMs: notification.signedDate + RefundControlRules.answerWindowMs))
    }

    /// The answer Apple accepted: a CONSUMPTION_REQUEST_ANSWERED event.
    mutating func refundAnswered(_ request: RefundRequestRow) async throws {
        let transaction = try await store.transaction(environment: request.environment, id: request.transactionId,
                                                      original: request.originalTransactionId)
        try await record(EventRules.Candidate(
            type: .consumptionRequestAnswered, key: "refund-answer|\(request.environment)|\(request.notificationUUID)",
            storeTimeMs: request.answeredMs ?? nowMs, environment: request.environment,
            originalTransactionId: request.originalTransactionId, transaction: transaction, productId: transaction?.productId),
            refundRequest: .init(reason: request.reason, refundPreference: request.refundPreference, deadlineMs: request.deadlineMs))
    }

    mutating func apply(_ signed: SignedRenewalInfo) async throws {
        let f = signed.fields
        let environment = f.environment ?? ""
        var row = RenewalRow(
            environment: environment, originalTransactionId: f.originalTransactionId ?? "", productId: f.productId,
            autoRenewProductId: f.autoRenewProductId, autoRenewStatus: f.autoRenewStatus, expirationIntent: f.expirationIntent,
            inBillingRetry: f.isInBillingRetryPeriod ?? false, gracePeriodExpiresMs: f.gracePeriodExpiresDate,
            signedMs: f.signedDate ?? 0, jws: signed.jws)
        let old = try await store.renewal(environment: environment, original: row.originalTransactionId)
        try await advanceCursor(environment: environment, notificationMs: nil, clockMs: row.signedMs)
        let (onMs, offMs) = EventRules.unsubscribeDetected(stored: old, signing: row)
        if var old, !EventRules.isNewer(signedMs: row.signedMs, jws: row.jws, than: old.signedMs, old.jws) {
            // An older signing changes nothing but what it tells of auto-renew's history.
            if old.autoRenewOnMs != onMs || old.unsubscribeDetectedMs != offMs {
                (old.autoRenewOnMs, old.unsubscribeDetectedMs) = (onMs, offMs)
                store.replace(old)
            }
            return
        }
        (row.autoRenewOnMs, row.unsubscribeDetectedMs) = (onMs, offMs)
        store.replace(row)
        let latest = try await store.latestTransaction(environment: environment, original: row.originalTransactionId)
        for candidate in EventRules.renewalChanged(old: old, new: row, latest: latest) { try await record(candidate) }
    }

    static func row(_ signed: SignedTransaction, groupId: String?) -> TransactionRow {
        let f = signed.fields
        return TransactionRow(
            environment: f.environment ?? "", transactionId: f.transactionId ?? "",
            originalTransactionId: f.originalTransactionId ?? "", bundleId: f.bundleId ?? "", productId: f.productId ?? "",
            groupId: groupId, type: f.type ?? "", purchaseMs: f.purchaseDate ?? 0, originalPurchaseMs: f.originalPurchaseDate,
            expiresMs: f.expiresDate, revocationMs: f.revocationDate, revocationType: f.revocationType, price: f.price,
            currency: f.currency, ownership: f.inAppOwnershipType ?? "PURCHASED", offerType: f.offerType,
            offerDiscountType: f.offerDiscountType, reason: f.transactionReason, appAccountToken: f.appAccountToken?.lowercased(),
            isUpgraded: f.isUpgraded ?? false, signedMs: f.signedDate ?? 0, jws: signed.jws, storefront: f.storefront)
    }

    // MARK: customers

    /// Links the subscription to a customer. Unlinked: to the source's user, else the token's user,
    /// else the token itself, else an anonymous customer of its own. Linked to someone else: an
    /// anonymous owner (or one named only by this token, now claimed) merges into the user; a
    /// deleted one gives way; between identified customers only the app's claim moves it, by
    /// the app's transfer policy (`CustomerIdentity.claim`).
    private mutating func link(environment: String, original: String, source: Source, token: String?) async throws {
        var user = source.user
        var tokenUser: String?
        if let token, !token.isEmpty {
            tokenUser = try await store.alias(token: token)?.appUserId
            if user == nil { user = tokenUser ?? token }
        }
        guard let existing = try await store.link(environment: environment, original: original) else {
            let owner = user ?? CustomerIdentity.anonymousId(environment: environment, originalTransactionId: original)
            store.insert(LinkRow(environment: environment, originalTransactionId: original, bundleId: app.bundleId, appUserId: owner))
            try await seeCustomer(owner, environment: environment)
            return
        }
        guard let user, user != existing.appUserId else { return }
        // A customer named by this purchase's token alone is provisional until someone claims the token.
        let provisional = token.map { existing.appUserId == $0 && tokenUser == user } ?? false
        var claim = CustomerIdentity.claim(current: existing.appUserId, claimant: user, policy: app.transferPolicy)
        if provisional { claim = .merge }
        switch (claim, source) {
        case (.same, _):
            return
        case (.merge, _):
            try await seeCustomer(user, environment: environment)
            store.merge(from: existing.appUserId, into: user)
        case (.relink, .app), (.relink, .sameAccount):
            try await seeCustomer(user, environment: environment)
            store.move(LinkRow(environment: environment, originalTransactionId: original, bundleId: existing.bundleId, appUserId: user))
        case (.transfer, .app):
            try await seeCustomer(user, environment: environment)
            store.move(LinkRow(environment: environment, originalTransactionId: original, bundleId: existing.bundleId, appUserId: user))
            try await record(EventRules.Candidate(
                type: .transfer, key: "transfer|\(environment)|\(original)|\(existing.appUserId)|\(user)|\(nowMs)",
                storeTimeMs: nowMs, environment: environment, originalTransactionId: original, transaction: nil, productId: nil),
                transfer: (existing.appUserId, user))
        case (.keep, .app):
            keptWith = existing.appUserId
        default:
            return
        }
    }

    /// Records a customer not known yet, first seen now: on the backend's clock, and on the
    /// store's as the backend knows it (its latest signing in `environment`, or `signedMs`).
    func seeCustomer(_ appUserId: String, environment: String, signedMs: Int64 = 0) async throws {
        if try await !store.customerExists(appUserId) {
            let storeClock = try await store.cursor(bundleId: app.bundleId, environment: environment)?.storeClockMs ?? 0
            store.insert(CustomerRow(appUserId: appUserId, firstSeenMs: nowMs, firstSeenStoreMs: max(nowMs, storeClock, signedMs)))
        }
    }

    func owner(environment: String, original: String) async throws -> String? {
        try await store.link(environment: environment, original: original)?.appUserId
    }

    private func advanceCursor(environment: String, notificationMs: Int64?, clockMs: Int64) async throws {
        let old = try await store.cursor(bundleId: app.bundleId, environment: environment)
        let new = CursorRow(
            bundleId: app.bundleId, environment: environment,
            lastNotificationMs: max(old?.lastNotificationMs ?? 0, notificationMs ?? 0),
            storeClockMs: max(old?.storeClockMs ?? 0, clockMs))
        if new == old { return }
        store.save(new)
    }

    // MARK: events

    /// Records the event once (its ID comes from its key) with one outbox row per webhook URL
    /// whose filters take it.
    private mutating func record(_ candidate: EventRules.Candidate, refundRequest: WebhookPayload.RefundRequest? = nil,
                                 priceIncreaseStatus: String? = nil, transfer: (from: String, to: String)? = nil) async throws {
        let id = Self.eventId(candidate.key)
        if try await store.eventExists(id, environment: candidate.environment, original: candidate.originalTransactionId) { return }
        let transaction: TransactionRow?
        if let t = candidate.transaction {
            transaction = t
        } else {
            transaction = try await store.latestTransaction(environment: candidate.environment, original: candidate.originalTransactionId)
        }
        let productId = candidate.productId ?? transaction?.productId ?? ""
        let entitlement = Entitlements.name(productId: productId, groupId: transaction?.groupId, type: transaction?.type, app: app)
        let owner = try await owner(environment: candidate.environment, original: candidate.originalTransactionId)
        var payload = WebhookPayload(
            id: id, type: candidate.type.rawValue, appUserId: owner, bundleId: app.bundleId, environment: candidate.environment,
            entitlementIds: [entitlement], productId: productId, transactionId: transaction?.transactionId,
            originalTransactionId: candidate.originalTransactionId,
            price: transaction?.price.map { Double($0) / 1000 }, priceMilliunits: transaction?.price, currency: transaction?.currency,
            periodType: transaction.map(Entitlements.periodType) ?? "normal", ownershipType: transaction?.ownership,
            eventTimestampMs: candidate.storeTimeMs, store: "APP_STORE", priceIncreaseStatus: priceIncreaseStatus,
            refundRequest: refundRequest)
        if let transfer {
            payload.transferredFrom = [transfer.from]
            payload.transferredTo = [transfer.to]
        }
        if let transaction {
            let chain = try await store.transactions(environment: transaction.environment, original: transaction.originalTransactionId)
            payload.describe(transaction, chain: chain, smallBusiness: app.smallBusinessProgram)
        }
        let row = EventRow(
            seq: try await store.nextEventSeq(), id: id, type: candidate.type.rawValue, appUserId: owner, bundleId: app.bundleId,
            environment: candidate.environment, entitlement: entitlement, productId: productId,
            transactionId: transaction?.transactionId, originalTransactionId: candidate.originalTransactionId,
            price: transaction?.price, currency: transaction?.currency, storeTimeMs: candidate.storeTimeMs, createdMs: nowMs,
            body: payload.json())
        store.insert(row)
        for hook in webhooks where hook.accepts(type: candidate.type.rawValue, environment: candidate.environment, bundleId: app.bundleId) {
            store.insert(OutboxRow(
                eventId: id, url: hook.url, attempts: 0, nextAttemptMs: nowMs, state: "pending", lastStatus: nil, lastError: nil))
        }
        events.append(row)
    }

    /// A TEST event for the app, to every webhook whatever its filters (it checks the receiver).
    mutating func recordTest() async throws -> WebhookPayload {
        let seq = try await store.nextEventSeq()
        let id = Self.eventId("test|\(app.bundleId)|\(seq)")
        let environment = app.environments.first ?? "Sandbox"
        let payload = WebhookPayload(
            id: id, type: EventType.test.rawValue, appUserId: nil, bundleId: app.bundleId, environment: environment,
            entitlementIds: [], productId: "", transactionId: nil, originalTransactionId: nil, price: nil, priceMilliunits: nil,
            currency: nil, periodType: "normal", ownershipType: nil, eventTimestampMs: nowMs, store: "APP_STORE")
        let row = EventRow(
            seq: seq, id: id, type: payload.type, appUserId: nil, bundleId: app.bundleId, environment: environment, entitlement: nil,
            productId: "", transactionId: nil, originalTransactionId: nil, price: nil, currency: nil, storeTimeMs: nowMs,
            createdMs: nowMs, body: payload.json())
        store.insert(row)
        for hook in webhooks {
            store.insert(OutboxRow(eventId: id, url: hook.url, attempts: 0, nextAttemptMs: nowMs, state: "pending", lastStatus: nil, lastError: nil))
        }
        events.append(row)
        return payload
    }

    /// A promotional grant's event, as RevenueCat sends its own: `NON_RENEWING_PURCHASE` when
    /// given, `CANCELLATION` when revoked, with `store` `PROMOTIONAL`; to the webhooks whose filters take it.
    mutating func recordGrant(_ grant: GrantRow, type: EventType, atMs: Int64) async throws {
        let id = Self.eventId("grant|\(grant.id)|\(type.rawValue)")
        let productId = "promotional.\(grant.duration)"
        let environment = "Production"
        let payload = WebhookPayload(
            id: id, type: type.rawValue, appUserId: grant.appUserId, bundleId: grant.bundleId, environment: environment,
            entitlementIds: [grant.entitlement], productId: productId, transactionId: nil, originalTransactionId: nil, price: nil,
            priceMilliunits: nil, currency: nil, periodType: "normal", ownershipType: nil, eventTimestampMs: atMs, store: "PROMOTIONAL")
        let row = EventRow(
            seq: try await store.nextEventSeq(), id: id, type: type.rawValue, appUserId: grant.appUserId, bundleId: grant.bundleId,
            environment: environment, entitlement: grant.entitlement, productId: productId, transactionId: nil, originalTransactionId: nil,
            price: nil, currency: nil, storeTimeMs: atMs, createdMs: nowMs, body: payload.json())
        store.insert(row)
        for hook in webhooks where hook.accepts(type: type.rawValue, environment: environment, bundleId: grant.bundleId) {
            store.insert(OutboxRow(eventId: id, url: hook.url, attempts: 0, nextAttemptMs: nowMs, state: "pending", lastStatus: nil, lastError: nil))
        }
        events.append(row)
    }

    /// A stable UUID-shaped ID from the event's key.
    static func eventId(_ key: String) -> String {
        let hex = SHA256.hash(data: Data(key.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let c = Array(hex)
        return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])].joined(separator: "-")
    }
}

extension LedgerKeys {
    /// These keys and what applying `transaction` for `app` reads: its subscription, its token,
    /// the app's cursor.
    func adding(_ transaction: SignedTransaction, app: AppConfiguration) -> LedgerKeys {
        var keys = self
        let f = transaction.fields
        keys.chains.append(ChainKey(environment: f.environment ?? "", original: f.originalTransactionId ?? ""))
        keys.cursors.append(CursorKey(bundleId: app.bundleId, environment: f.environment ?? ""))
        if let token = f.appAccountToken?.lowercased(), !token.isEmpty { keys.tokens.append(token) }
        return keys
    }
}
