import Crypto
import Foundation
import SQLKit

/// Applies verified App Store data to the backend's tables inside one write transaction: newer
/// signings replace older ones, links customers, and records the events (and their outbox
/// rows) each change makes.
struct LedgerWriter {
    let sql: any SQLDatabase
    let app: AppConfiguration
    let webhooks: [WebhookTarget]
    let nowMs: Int64
    /// Events recorded by this transaction, in order.
    private(set) var events: [EventRow] = []

    init(sql: any SQLDatabase, app: AppConfiguration, webhooks: [WebhookTarget], nowMs: Int64) {
        self.sql = sql
        self.app = app
        self.webhooks = webhooks
        self.nowMs = nowMs
    }

    // MARK: notifications

    /// False when the notification was applied before (same `notificationUUID`).
    mutating func apply(_ notification: VerifiedNotification) async throws -> Bool {
        let seen = try await sql.select().column("notificationUUID").from("bk_notifications")
            .where("notificationUUID", .equal, notification.uuid).first()
        if seen != nil { return false }
        try await sql.insert(into: "bk_notifications").model(NotificationRow(
            notificationUUID: notification.uuid, bundleId: app.bundleId, environment: notification.environment,
            type: notification.type, subtype: notification.subtype, signedMs: notification.signedDate, receivedMs: nowMs),
            nilEncodingStrategy: .asNil).run()
        if let transaction = notification.transaction { try await apply(transaction, owner: nil) }
        if let renewal = notification.renewal { try await apply(renewal) }
        if ["EXPIRED", "GRACE_PERIOD_EXPIRED"].contains(notification.type),
           let original = notification.transaction?.fields.originalTransactionId ?? notification.renewal?.fields.originalTransactionId {
            let latest = try await latestTransaction(environment: notification.environment, original: original)
            try await record(EventRules.expiration(environment: notification.environment, originalTransactionId: original,
                                                   latest: latest, at: notification.signedDate))
        }
        try await advanceCursor(environment: notification.environment, notificationMs: notification.signedDate,
                                clockMs: notification.signedDate)
        return true
    }

    // MARK: transactions

    /// Who owns a transaction the app posts: the user its `appAccountToken` was first given to,
    /// else the app user ID in the path (which then claims the token).
    mutating func claim(token: String?, for appUserId: String) async throws -> String {
        guard let token = token?.lowercased(), !token.isEmpty else { return appUserId }
        if let alias = try await sql.select().columns("*").from("bk_aliases").where("appAccountToken", .equal, token)
            .first(decoding: AliasRow.self) {
            return alias.appUserId
        }
        try await sql.insert(into: "bk_aliases").model(AliasRow(appAccountToken: token, appUserId: appUserId)).run()
        return appUserId
    }

    /// Stores the transaction if it is newer than what we hold, links it to `owner` (or, for
    /// data from the App Store, to the existing link, the token's user, or the token itself).
    mutating func apply(_ signed: SignedTransaction, owner: String?) async throws {
        let row = Self.row(signed, groupId: signed.fields.subscriptionGroupIdentifier)
        try await link(environment: row.environment, original: row.originalTransactionId, owner: owner, token: row.appAccountToken)
        let old = try await sql.select().columns("*").from("bk_transactions")
            .where("environment", .equal, row.environment).where("transactionId", .equal, row.transactionId)
            .first(decoding: TransactionRow.self)
        try await advanceCursor(environment: row.environment, notificationMs: nil, clockMs: row.signedMs)
        if let old, !EventRules.isNewer(signedMs: row.signedMs, jws: row.jws, than: old.signedMs, old.jws) { return }
        let previous = try await sql.select().columns("*").from("bk_transactions")
            .where("environment", .equal, row.environment).where("originalTransactionId", .equal, row.originalTransactionId)
            .where("purchaseMs", .lessThan, row.purchaseMs)
            .orderBy("purchaseMs", .descending).limit(1).first(decoding: TransactionRow.self)
        if old != nil {
            try await sql.delete(from: "bk_transactions").where("environment", .equal, row.environment)
                .where("transactionId", .equal, row.transactionId).run()
        }
        try await sql.insert(into: "bk_transactions").model(row, nilEncodingStrategy: .asNil).run()
        for candidate in EventRules.transactionChanged(old: old, new: row, previousInChain: previous) {
            try await record(candidate)
        }
    }

    mutating func apply(_ signed: SignedRenewalInfo) async throws {
        let f = signed.fields
        let environment = f.environment ?? ""
        let row = RenewalRow(
            environment: environment, originalTransactionId: f.originalTransactionId ?? "", productId: f.productId,
            autoRenewProductId: f.autoRenewProductId, autoRenewStatus: f.autoRenewStatus, expirationIntent: f.expirationIntent,
            inBillingRetry: f.isInBillingRetryPeriod ?? false, gracePeriodExpiresMs: f.gracePeriodExpiresDate,
            signedMs: f.signedDate ?? 0, jws: signed.jws)
        let old = try await sql.select().columns("*").from("bk_renewals")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, row.originalTransactionId)
            .first(decoding: RenewalRow.self)
        try await advanceCursor(environment: environment, notificationMs: nil, clockMs: row.signedMs)
        if let old, !EventRules.isNewer(signedMs: row.signedMs, jws: row.jws, than: old.signedMs, old.jws) { return }
        if old != nil {
            try await sql.delete(from: "bk_renewals").where("environment", .equal, environment)
                .where("originalTransactionId", .equal, row.originalTransactionId).run()
        }
        try await sql.insert(into: "bk_renewals").model(row, nilEncodingStrategy: .asNil).run()
        let latest = try await latestTransaction(environment: environment, original: row.originalTransactionId)
        for candidate in EventRules.renewalChanged(old: old, new: row, latest: latest) { try await record(candidate) }
    }

    func latestTransaction(environment: String, original: String) async throws -> TransactionRow? {
        try await sql.select().columns("*").from("bk_transactions")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .orderBy("purchaseMs", .descending).limit(1).first(decoding: TransactionRow.self)
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
            isUpgraded: f.isUpgraded ?? false, signedMs: f.signedDate ?? 0, jws: signed.jws)
    }

    // MARK: customers

    private func link(environment: String, original: String, owner: String?, token: String?) async throws {
        let existing = try await sql.select().columns("*").from("bk_links")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .first(decoding: LinkRow.self)
        if existing != nil { return }
        var user = owner
        if user == nil, let token, !token.isEmpty {
            let alias = try await sql.select().columns("*").from("bk_aliases").where("appAccountToken", .equal, token.lowercased())
                .first(decoding: AliasRow.self)
            user = alias?.appUserId ?? token.lowercased()
        }
        guard let user else { return }
        try await sql.insert(into: "bk_links").model(LinkRow(
            environment: environment, originalTransactionId: original, bundleId: app.bundleId, appUserId: user)).run()
        // Events made before the link (data that arrived before the app posted) now have a customer.
        try await sql.update("bk_events").set("appUserId", to: user)
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .where(SQLColumn("appUserId"), .is, SQLLiteral.null).run()
        try await seeCustomer(user)
    }

    func seeCustomer(_ appUserId: String) async throws {
        let known = try await sql.select().column("appUserId").from("bk_customers").where("appUserId", .equal, appUserId).first()
        if known == nil {
            try await sql.insert(into: "bk_customers").model(CustomerRow(appUserId: appUserId, firstSeenMs: nowMs)).run()
        }
    }

    func owner(environment: String, original: String) async throws -> String? {
        try await sql.select().column("appUserId").from("bk_links")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .first(decodingColumn: "appUserId", as: String.self)
    }

    private func advanceCursor(environment: String, notificationMs: Int64?, clockMs: Int64) async throws {
        let old = try await sql.select().columns("*").from("bk_cursors")
            .where("bundleId", .equal, app.bundleId).where("environment", .equal, environment).first(decoding: CursorRow.self)
        let new = CursorRow(
            bundleId: app.bundleId, environment: environment,
            lastNotificationMs: max(old?.lastNotificationMs ?? 0, notificationMs ?? 0),
            storeClockMs: max(old?.storeClockMs ?? 0, clockMs))
        if new == old { return }
        if old != nil {
            try await sql.update("bk_cursors").set(model: new)
                .where("bundleId", .equal, app.bundleId).where("environment", .equal, environment).run()
        } else {
            try await sql.insert(into: "bk_cursors").model(new).run()
        }
    }

    // MARK: events

    /// Records the event once (its ID comes from its key) with one outbox row per webhook URL.
    private mutating func record(_ candidate: EventRules.Candidate) async throws {
        let id = Self.eventId(candidate.key)
        let exists = try await sql.select().column("id").from("bk_events").where("id", .equal, id).first()
        if exists != nil { return }
        let transaction: TransactionRow?
        if let t = candidate.transaction {
            transaction = t
        } else {
            transaction = try await latestTransaction(environment: candidate.environment, original: candidate.originalTransactionId)
        }
        let productId = candidate.productId ?? transaction?.productId ?? ""
        let entitlement = Entitlements.name(productId: productId, groupId: transaction?.groupId, type: transaction?.type, app: app)
        let owner = try await owner(environment: candidate.environment, original: candidate.originalTransactionId)
        let last = try await sql.select().column(SQLFunction("MAX", args: SQLColumn("seq")), as: "m").from("bk_events")
            .first(decodingColumn: "m", as: Int64?.self) ?? nil
        let payload = WebhookPayload(
            id: id, type: candidate.type.rawValue, appUserId: owner, bundleId: app.bundleId, environment: candidate.environment,
            entitlementIds: [entitlement], productId: productId, transactionId: transaction?.transactionId,
            originalTransactionId: candidate.originalTransactionId,
            price: transaction?.price.map { Double($0) / 1000 }, priceMilliunits: transaction?.price, currency: transaction?.currency,
            periodType: transaction.map(Entitlements.periodType) ?? "normal", ownershipType: transaction?.ownership,
            eventTimestampMs: candidate.storeTimeMs)
        let row = EventRow(
            seq: (last ?? 0) + 1, id: id, type: candidate.type.rawValue, appUserId: owner, bundleId: app.bundleId,
            environment: candidate.environment, entitlement: entitlement, productId: productId,
            transactionId: transaction?.transactionId, originalTransactionId: candidate.originalTransactionId,
            price: transaction?.price, currency: transaction?.currency, storeTimeMs: candidate.storeTimeMs, createdMs: nowMs,
            body: payload.json())
        try await sql.insert(into: "bk_events").model(row, nilEncodingStrategy: .asNil).run()
        for hook in webhooks {
            try await sql.insert(into: "bk_outbox").model(OutboxRow(
                eventId: id, url: hook.url, attempts: 0, nextAttemptMs: nowMs, state: "pending", lastStatus: nil, lastError: nil),
                nilEncodingStrategy: .asNil).run()
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
