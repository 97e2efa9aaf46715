import SQLKit

/// The statements of one write transaction, and nothing else: no rules decide here. With
/// `BackendDatabase` it is all the SQL the backend runs, portable SQLKit builders with binds.
struct BackendTransaction {
    let sql: any SQLDatabase

    // MARK: notifications

    func notificationSeen(_ uuid: String) async throws -> Bool {
        try await sql.select().column("notificationUUID").from("bk_notifications").where("notificationUUID", .equal, uuid).first() != nil
    }

    func insert(_ row: NotificationRow) async throws {
        try await sql.insert(into: "bk_notifications").model(row, nilEncodingStrategy: .asNil).run()
    }

    // MARK: transactions and renewal info

    func transaction(environment: String, id: String) async throws -> TransactionRow? {
        try await sql.select().columns("*").from("bk_transactions")
            .where("environment", .equal, environment).where("transactionId", .equal, id).first(decoding: TransactionRow.self)
    }

    /// The chain's transaction purchased last before `purchaseMs`.
    func previousTransaction(environment: String, original: String, before purchaseMs: Int64) async throws -> TransactionRow? {
        try await sql.select().columns("*").from("bk_transactions")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .where("purchaseMs", .lessThan, purchaseMs)
            .orderBy("purchaseMs", .descending).limit(1).first(decoding: TransactionRow.self)
    }

    func latestTransaction(environment: String, original: String) async throws -> TransactionRow? {
        try await BackendDatabase.latestTransaction(sql, environment: environment, original: original)
    }

    func replace(_ row: TransactionRow, existed: Bool) async throws {
        if existed {
            try await sql.delete(from: "bk_transactions").where("environment", .equal, row.environment)
                .where("transactionId", .equal, row.transactionId).run()
        }
        try await sql.insert(into: "bk_transactions").model(row, nilEncodingStrategy: .asNil).run()
    }

    func renewal(environment: String, original: String) async throws -> RenewalRow? {
        try await sql.select().columns("*").from("bk_renewals")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .first(decoding: RenewalRow.self)
    }

    func replace(_ row: RenewalRow, existed: Bool) async throws {
        if existed {
            try await sql.delete(from: "bk_renewals").where("environment", .equal, row.environment)
                .where("originalTransactionId", .equal, row.originalTransactionId).run()
        }
        try await sql.insert(into: "bk_renewals").model(row, nilEncodingStrategy: .asNil).run()
    }

    // MARK: customers

    func alias(token: String) async throws -> AliasRow? {
        try await sql.select().columns("*").from("bk_aliases").where("appAccountToken", .equal, token).first(decoding: AliasRow.self)
    }

    func insert(_ row: AliasRow) async throws {
        try await sql.insert(into: "bk_aliases").model(row).run()
    }

    func link(environment: String, original: String) async throws -> LinkRow? {
        try await sql.select().columns("*").from("bk_links")
            .where("environment", .equal, environment).where("originalTransactionId", .equal, original)
            .first(decoding: LinkRow.self)
    }

    /// Links the subscription, and gives its events made before the link their customer.
    func insert(_ row: LinkRow) async throws {
        try await sql.insert(into: "bk_links").model(row).run()
        try await sql.update("bk_events").set("appUserId", to: row.appUserId)
            .where("environment", .equal, row.environment).where("originalTransactionId", .equal, row.originalTransactionId)
            .where(SQLColumn("appUserId"), .is, SQLLiteral.null).run()
    }

    func customerExists(_ appUserId: String) async throws -> Bool {
        try await sql.select().column("appUserId").from("bk_customers").where("appUserId", .equal, appUserId).first() != nil
    }

    func insert(_ row: CustomerRow) async throws {
        try await sql.insert(into: "bk_customers").model(row).run()
    }

    func cursor(bundleId: String, environment: String) async throws -> CursorRow? {
        try await BackendDatabase.cursor(sql, bundleId: bundleId, environment: environment)
    }

    func save(_ row: CursorRow, existed: Bool) async throws {
        if existed {
            try await sql.update("bk_cursors").set(model: row)
                .where("bundleId", .equal, row.bundleId).where("environment", .equal, row.environment).run()
        } else {
            try await sql.insert(into: "bk_cursors").model(row).run()
        }
    }

    func replace(_ row: RevisionRow) async throws {
        try await sql.delete(from: "bk_revisions").where("environment", .equal, row.environment)
            .where("bundleId", .equal, row.bundleId).where("appUserId", .equal, row.appUserId).run()
        try await sql.insert(into: "bk_revisions").model(row).run()
    }

    // MARK: events and deliveries

    func eventExists(_ id: String) async throws -> Bool {
        try await sql.select().column("id").from("bk_events").where("id", .equal, id).first() != nil
    }

    func lastEventSeq() async throws -> Int64 {
        try await sql.select().column(SQLFunction("MAX", args: SQLColumn("seq")), as: "m").from("bk_events")
            .first(decodingColumn: "m", as: Int64?.self).flatMap { $0 } ?? 0
    }

    func insert(_ row: EventRow) async throws {
        try await sql.insert(into: "bk_events").model(row, nilEncodingStrategy: .asNil).run()
    }

    func insert(_ row: OutboxRow) async throws {
        try await sql.insert(into: "bk_outbox").model(row, nilEncodingStrategy: .asNil).run()
    }

    /// Takes up to `limit` due deliveries, soonest due first, for this instance until `untilMs`:
    /// their next attempt moves to `untilMs`, so no other instance takes them meanwhile, and one
    /// that dies leaves them due again at `untilMs` (`WebhookDispatcher`).
    func leaseDueOutbox(nowMs: Int64, limit: Int, untilMs: Int64) async throws -> [OutboxRow] {
        let due = try await sql.select().columns("*").from("bk_outbox")
            .where("state", .equal, "pending").where("nextAttemptMs", .lessThanOrEqual, nowMs)
            .orderBy("nextAttemptMs").limit(limit).all(decoding: OutboxRow.self)
        for row in due { try await setNextAttempt(row, ms: untilMs) }
        return due
    }

    /// Whether the lease taken with `untilMs` on `row` still holds: no attempt was recorded and
    /// no other instance took the delivery since.
    func holdsLease(_ row: OutboxRow, untilMs: Int64) async throws -> Bool {
        let current = try await sql.select().columns("*").from("bk_outbox")
            .where("eventId", .equal, row.eventId).where("url", .equal, row.url).first(decoding: OutboxRow.self)
        return current?.state == "pending" && current?.attempts == row.attempts && current?.nextAttemptMs == untilMs
    }

    /// Hands back leased deliveries that were not attempted: due again when they were due before.
    /// One statement per row, changing it only while the lease still holds (`holdsLease`'s test).
    func releaseLease(_ rows: [OutboxRow], untilMs: Int64) async throws {
        for row in rows {
            try await sql.update("bk_outbox").set("nextAttemptMs", to: row.nextAttemptMs)
                .where("eventId", .equal, row.eventId).where("url", .equal, row.url)
                .where("state", .equal, "pending").where("attempts", .equal, row.attempts)
                .where("nextAttemptMs", .equal, untilMs).run()
        }
    }

    private func setNextAttempt(_ row: OutboxRow, ms: Int64) async throws {
        try await sql.update("bk_outbox").set("nextAttemptMs", to: ms)
            .where("eventId", .equal, row.eventId).where("url", .equal, row.url).run()
    }

    /// One delivery attempt: the outbox row's new state and the log line, together.
    func record(_ outbox: OutboxRow, _ delivery: DeliveryRow) async throws {
        try await sql.update("bk_outbox").set(model: outbox, nilEncodingStrategy: .asNil)
            .where("eventId", .equal, outbox.eventId).where("url", .equal, outbox.url).run()
        try await sql.insert(into: "bk_deliveries").model(delivery, nilEncodingStrategy: .asNil).run()
    }
}
