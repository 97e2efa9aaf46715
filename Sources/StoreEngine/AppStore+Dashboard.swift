import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// A customer the dashboard's search found, and which of their identifiers matched.
public struct CustomerMatch: Sendable, Equatable {
    /// The customer found (a stand-in in the USA storefront when no record of them is stored yet).
    public var customer: StoreCustomer
    /// "customer ID", "transaction ID", "original transaction ID" or "appAccountToken".
    public var matchedBy: String
}

/// A stretch of one subscription's history, for timelines: consecutive periods of one product,
/// each renewing where the previous one ended (renewals, a grace-period recovery), none revoked;
/// or one revoked period on its own. A gap between two runs is time without a period (billing
/// retry that ended in a new period, a lapse before resubscribing); a product change starts a run.
public struct SubscriptionRun: Sendable, Equatable {
    /// The subscription the run belongs to (its original transaction ID).
    public var originalId: Int64
    /// The product every period of the run is for.
    public var productId: String
    /// How many transactions (periods) the run holds.
    public var periods: Int
    /// The run's first and last transaction IDs.
    public var firstId: Int64
    /// The run's last transaction ID.
    public var lastId: Int64
    /// When the run's first period began.
    public var startMs: Int64
    /// Where the run's last period starts (the current period, when the run has not ended).
    public var lastStartMs: Int64
    /// When the run's last period expires (or expired).
    public var endMs: Int64
    /// Set when the run is one revoked (refunded, revoked, upgraded-away) period.
    public var revokedMs: Int64?

    /// A run; `lastStartMs` defaults to `startMs`, as for a run of one period.
    public init(originalId: Int64, productId: String, periods: Int, firstId: Int64, lastId: Int64, startMs: Int64, lastStartMs: Int64? = nil, endMs: Int64, revokedMs: Int64?) {
        self.originalId = originalId
        self.productId = productId
        self.periods = periods
        self.firstId = firstId
        self.lastId = lastId
        self.startMs = startMs
        self.lastStartMs = lastStartMs ?? startMs
        self.endMs = endMs
        self.revokedMs = revokedMs
    }
}

/// A page of one customer's transactions in one app, and their subscriptions' periods as runs.
public struct CustomerHistory: Sendable {
    /// How many transactions the customer has in the app.
    public var total: Int
    /// Where the page starts among the customer's transactions (clamped to `total`).
    public var offset: Int
    /// The page, newest purchase first.
    public var transactions: [Signed<TransactionPayload>]
    /// Every auto-renewable period of the customer in the app, grouped into runs: by original
    /// transaction, oldest first.
    public var runs: [SubscriptionRun]
}

/// A notification as the dashboard's delivery log shows it: its delivery state and its content
/// decoded (the nested transaction and renewal info as JSON, not as JWS).
public struct NotificationEntry: Sendable {
    /// Type, customer, transaction and every delivery attempt.
    public var summary: NotificationSummary
    /// `ResponseBodyV2DecodedPayload` without the signed members.
    public var payloadJSON: String
    /// The notification's transaction as decoded JSON, if it carries one.
    public var transactionJSON: String?
    /// The notification's renewal info as decoded JSON, if it carries one.
    public var renewalInfoJSON: String?
}

/// A Server API key as the dashboard lists it (the public half only; the `.p8` is never kept).
public struct APIKeyInfo: Sendable, Equatable {
    /// The key's ID (`kid`).
    public var keyId: String
    /// The issuer ID tokens signed with the key must carry.
    public var issuerId: String
    /// The app the key opens the Server API for.
    public var bundleId: String
    /// When the key was made.
    public var createdMs: Int64
}

/// What the web Transaction Manager (`/manage`) reads beyond the admin API, and its clock pause.
/// Read-only views of the world except `pauseClock`/`resumeClock`, `sendNotificationNow` and
/// `revokeAPIKey`; every Transaction Manager action stays on the existing engine methods.
extension AppStore {
    static let pausedRateKind = "paused_rate"

    // MARK: Customers

    func searchCustomers(_ text: String, world worldId: String, limit: Int = 200) async throws -> [CustomerMatch] {
        let world = try await self.loadedWorld(worldId)
        try await world.catchUp()
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var found: [CustomerMatch] = []
        var seen = Set<String>()
        func add(_ name: String, _ how: String) async throws {
            guard found.count < limit, seen.insert(name).inserted else { return }
            let record = try await world.customer(name)
                ?? CustomerRecord(world: worldId, name: name, storefront: "USA", locale: "en_US", createdMs: 0)
            found.append(CustomerMatch(customer: StoreCustomer(record), matchedBy: how))
        }
        if let id = Int64(query), id > 0 {
            if let record = try await database.transaction(id: id), record.world == worldId { try await add(record.customer, "transaction ID") }
            for record in try await database.transactions(originalId: id) where record.world == worldId {
                try await add(record.customer, "original transaction ID")
            }
        }
        if let token = UUID(uuidString: query) {
            for spelling in Set([query, token.uuidString.lowercased(), token.uuidString]) {
                for record in try await database.transactions(world: worldId, appAccountToken: spelling) {
                    try await add(record.customer, "appAccountToken")
                }
            }
        }
        for record in try await database.customers(world: worldId, nameContaining: query.isEmpty ? nil : query, limit: limit) {
            try await add(record.name, "customer ID")
        }
        if query.isEmpty || found.count < limit {
            // Customers met since start-up whose record is still in its group commit.
            for name in await world.knownCustomerNames() where query.isEmpty || name.lowercased().contains(query.lowercased()) {
                try await add(name, "customer ID")
            }
        }
        return found
    }

    // MARK: One customer

    func customerHistory(bundleId: String, customer: String, world worldId: String,
                                offset: Int = 0, limit: Int = 20) async throws -> CustomerHistory {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(worldId)
        try await world.catchUp()
        let now = await world.nowMs()
        let page = try await database.transactionPage(world: worldId, bundleId: app.bundleId, customer: customer, offset: max(0, offset), limit: max(0, limit))
        let runs = try await database.subscriptionRuns(world: worldId, bundleId: app.bundleId, customer: customer)
        return CustomerHistory(
            total: page.total, offset: min(max(0, offset), page.total), transactions: try page.rows.map { try sign($0, nowMs: now) },
            runs: runs.map {
                SubscriptionRun(originalId: $0.originalId, productId: $0.productId, periods: $0.periods, firstId: $0.firstId, lastId: $0.lastId,
                                startMs: $0.startMs, lastStartMs: $0.lastStartMs, endMs: $0.endMs, revokedMs: $0.revokedMs)
            })
    }

    func existingAppTransaction(bundleId: String, customer: String, world worldId: String) async throws -> Signed<AppTransactionPayload>? {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(worldId)
        guard let record = try await database.appTransaction(world: worldId, bundleId: app.bundleId, customer: customer) else { return nil }
        return try sign(record, app: app, nowMs: await world.nowMs())
    }

    func allMessages(bundleId: String, customer: String, world worldId: String) async throws -> [StoreMessage] {
        let app = try app(bundleId)
        _ = try await self.loadedWorld(worldId)
        return try await database.worldRecords(world: worldId, kind: StoreMessage.recordKind).compactMap {
            try? PayloadCoding.decoder.decode(StoreMessage.self, from: Data($0.value.utf8))
        }.filter { $0.bundleId == app.bundleId && $0.customer == customer }
            .sorted { $0.createdDate == $1.createdDate ? $0.seq < $1.seq : $0.createdDate < $1.createdDate }
    }

    // MARK: Clock

    func pauseClock(_ worldId: String) async throws -> WorldInfo {
        let world = try await self.loadedWorld(worldId)
        let rate = await world.rate
        guard rate.clockSpeed > 0 else { return await world.info() }
        try await database.write(WriteBatch(worldRecords: [
            WorldRecord(world: worldId, kind: Self.pausedRateKind, key: "rate", value: Self.rateText(rate)),
        ]))
        try await world.setRate(.multiplier(0))
        return await world.info()
    }

    func resumeClock(_ worldId: String) async throws -> WorldInfo {
        let world = try await self.loadedWorld(worldId)
        guard await world.rate.clockSpeed == 0 else { return await world.info() }
        let saved = try await database.worldRecord(world: worldId, kind: Self.pausedRateKind, key: "rate")
        try await world.setRate(saved.flatMap { TimeRate($0.value) } ?? .realTime)
        try await database.deleteWorldRecord(world: worldId, kind: Self.pausedRateKind, key: "rate")
        return await world.info()
    }

    static func rateText(_ rate: TimeRate) -> String {
        switch rate {
        case .apple(let apple): String(apple.rawValue)
        case .multiplier(let factor): "\(factor)x"
        }
    }

    // MARK: Notifications and keys

    func sendNotificationNow(seq: Int64, world worldId: String) async throws -> Bool {
        let world = try await self.loadedWorld(worldId)
        return try await database.rescheduleNotification(world: worldId, seq: seq, atMs: await world.nowMs())
    }

    func notificationLog(world worldId: String, bundleId: String? = nil, type: String? = nil,
                                customer: String? = nil, failuresOnly: Bool = false, limit: Int = 100) async throws -> [NotificationEntry] {
        _ = try await self.loadedWorld(worldId)
        let records = try await database.notifications(world: worldId, bundleId: bundleId, afterSeq: 0, limit: 100_000)
        var out: [NotificationEntry] = []
        for record in records.reversed() {
            guard out.count < limit else { break }
            if let type, record.type != type { continue }
            if let customer, record.customer != customer { continue }
            let summary = NotificationSummary(record)
            if failuresOnly, summary.delivered, !summary.sendAttempts.contains(where: { $0.sendAttemptResult != "SUCCESS" }) { continue }
            var json = JSONWriter(capacity: record.body.utf8.count + 192)
            json.beginObject()
            json.field("notificationType", record.type)
            json.field("subtype", record.subtype)
            json.field("notificationUUID", record.uuid)
            json.raw(record.bodyKey, Array(record.body.utf8))
            json.field("version", "2.0")
            json.field("signedDate", record.signedMs)
            json.endObject()
            out.append(NotificationEntry(summary: summary, payloadJSON: String(decoding: json.bytes, as: UTF8.self),
                                         transactionJSON: record.transactionJSON, renewalInfoJSON: record.renewalJSON))
        }
        return out
    }

    func requestTestNotification(bundleId: String, world: String) async throws -> String {
        try await queueTestNotification(bundleId: bundleId, world: world)
    }

    func apiKeys(world worldId: String) async throws -> [APIKeyInfo] {
        _ = try await self.loadedWorld(worldId)
        return try await database.apiKeys().filter { $0.world == worldId }
            .map { APIKeyInfo(keyId: $0.keyId, issuerId: $0.issuerId, bundleId: $0.bundleId, createdMs: $0.createdMs) }
    }

    func revokeAPIKey(_ keyId: String, world worldId: String) async throws {
        _ = try await self.loadedWorld(worldId)
        guard let key = try await database.apiKey(id: keyId), key.world == worldId else {
            throw StoreError.malformedRequest("no Server API key \(keyId) in world \(worldId)")
        }
        revokedKeys.revoke(keyId)
        try await database.deleteAPIKey(id: keyId)
    }

    func recentEvents(world worldId: String, limit: Int = 200) async throws -> [StoreEvent] {
        let world = try await self.loadedWorld(worldId)
        try await world.catchUp()
        return try await database.latestEvents(world: worldId, limit: max(1, min(limit, 10_000))).map(StoreEvent.init)
    }

    // MARK: Figures

    func dashboardFigures(world worldId: String, days: Int = 60, hours: Int = 48) async throws -> DashboardFigures {
        let world = try await self.loadedWorld(worldId)
        try await world.catchUp()
        let now = await world.nowMs()
        let transactions = try await database.worldTransactions(world: worldId, limit: 50_000)
        let notifications = try await notifications(world: worldId, limit: 10_000)
        return DashboardFigures(transactions: transactions, notifications: notifications, nowMs: now, days: days, hours: hours)
    }
}
