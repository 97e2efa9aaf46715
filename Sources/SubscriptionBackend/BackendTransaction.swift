import SQLKit

/// The statements of one write transaction, and nothing else: no rules decide here. With
/// `BackendDatabase` it is all the SQL the backend runs, portable SQLKit builders with binds.
/// The ledger's reads and writes come in bulk, many keys or rows per statement, because a batch
/// of writes loads and saves together (`LedgerStore`).
struct BackendTransaction: Sendable {
    let sql: any SQLDatabase

    /// Keys per `IN (...)` list and bound values per statement, under every engine's limit
    /// (SQLite's is 32,766 binds, PostgreSQL's 65,535).
    static let keysPerStatement = 1_000
    static let bindsPerStatement = 20_000

    // MARK: bulk reads of the ledger

    /// Which of these notifications were applied before.
    func seenNotifications(_ uuids: [String]) async throws -> [String] {
        var seen: [String] = []
        for part in Self.parts(uuids) {
            seen += try await sql.select().column("notificationUUID").from("bk_notifications")
                .where("notificationUUID", .in, part).all(decodingColumn: "notificationUUID", as: String.self)
        }
        return seen
    }

    /// Every transaction of these subscriptions (original transactions).
    func transactions(chains: [ChainKey]) async throws -> [TransactionRow] {
        try await rows(of: chains, from: "bk_transactions", as: TransactionRow.self)
    }

    func renewals(chains: [ChainKey]) async throws -> [RenewalRow] {
        try await rows(of: chains, from: "bk_renewals", as: RenewalRow.self)
    }

    func links(chains: [ChainKey]) async throws -> [LinkRow] {
        try await rows(of: chains, from: "bk_links", as: LinkRow.self)
    }

    /// The IDs of these subscriptions' events, and whether each has its customer yet.
    func events(chains: [ChainKey]) async throws -> [EventKey] {
        try await rows(of: chains, from: "bk_events", columns: ["id", "environment", "originalTransactionId", "appUserId"],
                       as: EventKey.self)
    }

    func aliases(tokens: [String]) async throws -> [AliasRow] {
        var found: [AliasRow] = []
        for part in Self.parts(tokens) {
            found += try await sql.select().columns("*").from("bk_aliases").where("appAccountToken", .in, part)
                .all(decoding: AliasRow.self)
        }
        return found
    }

    /// Which of these app users are known.
    func customers(_ appUserIds: [String]) async throws -> [String] {
        var found: [String] = []
        for part in Self.parts(appUserIds) {
            found += try await sql.select().column("appUserId").from("bk_customers").where("appUserId", .in, part)
                .all(decodingColumn: "appUserId", as: String.self)
        }
        return found
    }

    func customerExists(_ appUserId: String) async throws -> Bool {
        try await !customers([appUserId]).isEmpty
    }

    func cursor(bundleId: String, environment: String) async throws -> CursorRow? {
        try await BackendDatabase.cursor(sql, bundleId: bundleId, environment: environment)
    }

    func lastEventSeq() async throws -> Int64 {
        try await sql.select().column(SQLFunction("MAX", args: SQLColumn("seq")), as: "m").from("bk_events")
            .first(decodingColumn: "m", as: Int64?.self).flatMap { $0 } ?? 0
    }

    /// Rows of `table` keyed by environment and original transaction, one statement per
    /// environment and `keysPerStatement` subscriptions.
    private func rows<Row: Decodable>(of chains: [ChainKey], from table: String, columns: [String] = ["*"],
                                      as type: Row.Type) async throws -> [Row] {
        var found: [Row] = []
        for (environment, keys) in Dictionary(grouping: chains, by: \.environment) {
            for part in Self.parts(keys.map(\.original)) {
                found += try await sql.select().columns(columns.map { $0 == "*" ? SQLLiteral.all as any SQLExpression : SQLColumn($0) }).from(table)
                    .where("environment", .equal, environment).where("originalTransactionId", .in, part).all(decoding: Row.self)
            }
        }
        return found
    }

    private static func parts(_ keys: [String]) -> [[String]] {
        let unique = Array(Set(keys))
        return stride(from: 0, to: unique.count, by: keysPerStatement).map { Array(unique[$0..<min($0 + keysPerStatement, unique.count)]) }
    }

    // MARK: bulk writes of the ledger

    /// Inserts `rows`, several per statement; with `replacingOn`, a row whose key exists replaces
    /// it (an upsert: `ON CONFLICT (key) DO UPDATE`, which SQLite and PostgreSQL both speak).
    /// The statement's text is put together here rather than by SQLKit's builders, which quote
    /// every identifier anew: that quoting was a fifth of ingest's CPU (`openstore-bench`, perf).
    /// Values are still binds; the identifiers are the backend's own column names.
    func insert<Row: Encodable & Sendable>(_ rows: [Row], into table: String, replacingOn key: [String]? = nil) async throws {
        guard let first = rows.first else { return }
        let encoder = SQLQueryEncoder(nilEncodingStrategy: .asNil)
        let columns = try encoder.encode(first).map(\.0)
        let quoted = columns.map(Self.quoted)
        let head = "INSERT INTO \(Self.quoted(table)) (\(quoted.joined(separator: ", "))) VALUES "
        var tail = ""
        if let key {
            let updates = zip(columns, quoted).filter { !key.contains($0.0) }.map { "\($0.1) = EXCLUDED.\($0.1)" }
            tail = " ON CONFLICT (\(key.map(Self.quoted).joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
        }
        let perStatement = max(1, Self.bindsPerStatement / max(1, columns.count))
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            var query = SQLQueryString(head)
            for (index, row) in rows[start..<min(start + perStatement, rows.count)].enumerated() {
                query.appendLiteral(index == 0 ? "(" : ", (")
                for (position, value) in try encoder.encode(row).enumerated() {
                    if position > 0 { query.appendLiteral(", ") }
                    query.appendInterpolation(value.1)
                }
                query.appendLiteral(")")
            }
            query.appendLiteral(tail)
            try await sql.raw(query).run()
        }
    }

    /// An identifier in double quotes, as both dialects quote them (the backend's names hold no quote).
    private static func quoted(_ name: String) -> String { "\"\(name)\"" }

    /// Gives the events of these subscriptions made before they had a customer the linked one.
    func ownEvents(of links: [LinkRow]) async throws {
        for link in links {
            try await sql.update("bk_events").set("appUserId", to: link.appUserId)
                .where("environment", .equal, link.environment).where("originalTransactionId", .equal, link.originalTransactionId)
                .where(SQLColumn("appUserId"), .is, SQLLiteral.null).run()
        }
    }

    func replace(_ row: RevisionRow) async throws {
        try await insert([row], into: "bk_revisions", replacingOn: ["environment", "bundleId", "appUserId"])
    }

    // MARK: events and deliveries

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
