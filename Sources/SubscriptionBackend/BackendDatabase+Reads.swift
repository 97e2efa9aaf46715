import SQLKit

/// Reads, on the read connection: they never wait for a write.
extension BackendDatabase {
    static func cursor(_ sql: any SQLDatabase, bundleId: String, environment: String) async throws -> CursorRow? {
        try await sql.select().columns("*").from("bk_cursors")
            .where("bundleId", .equal, bundleId).where("environment", .equal, environment).first(decoding: CursorRow.self)
    }

    func cursor(bundleId: String, environment: String) async throws -> CursorRow? {
        try await Self.cursor(readSQL, bundleId: bundleId, environment: environment)
    }

    /// The latest store clock reading over every app and environment.
    func storeClock() async throws -> Int64? { try await Self.storeClock(readSQL) }

    static func storeClock(_ sql: any SQLDatabase) async throws -> Int64? {
        try await sql.select().column(SQLFunction("MAX", args: SQLColumn("storeClockMs")), as: "m").from("bk_cursors")
            .first(decodingColumn: "m", as: Int64?.self) ?? nil
    }

    func customer(_ appUserId: String) async throws -> CustomerRow? {
        try await readSQL.select().columns("*").from("bk_customers").where("appUserId", .equal, appUserId)
            .first(decoding: CustomerRow.self)
    }

    /// The customer `id` names: itself, or the one it is an alias of; nil when neither is known.
    func customer(named id: String) async throws -> CustomerRow? {
        if let row = try await customer(id) { return row }
        guard let primary = try await readSQL.select().column("appUserId").from("bk_user_aliases").where("alias", .equal, id)
            .first(decodingColumn: "appUserId", as: String.self) else { return nil }
        return try await customer(primary)
    }

    /// A customer's aliases, attributes, grants and app transactions, in one statement: customer
    /// info is read on every app launch, and each statement is a hop to the reader's thread (#33's
    /// customer-info p99). Four small tables, one row shape: text columns `s1`–`s4`, numbers `n1`–`n3`.
    func customerExtras(appUserId id: String) async throws -> CustomerExtras {
        struct Row: Decodable { var kind: String; var s1: String?; var s2: String?; var s3: String?; var s4: String?
                                var n1: Int64?; var n2: Int64?; var n3: Int64? }
        let text = "CAST(NULL AS TEXT)", number = "CAST(NULL AS BIGINT)"
        let rows = try await readSQL.raw("""
            SELECT 'alias' AS kind, "alias" AS s1, \(unsafeRaw: text) AS s2, \(unsafeRaw: text) AS s3, \(unsafeRaw: text) AS s4,
                   \(unsafeRaw: number) AS n1, \(unsafeRaw: number) AS n2, \(unsafeRaw: number) AS n3
              FROM bk_user_aliases WHERE "appUserId" = \(bind: id)
            UNION ALL SELECT 'attribute', "key", "value", \(unsafeRaw: text), \(unsafeRaw: text), "updatedMs", \(unsafeRaw: number), \(unsafeRaw: number)
              FROM bk_attributes WHERE "appUserId" = \(bind: id)
            UNION ALL SELECT 'grant', "id", "entitlement", "bundleId", "duration", "startMs", "expiresMs", "revokedMs"
              FROM bk_grants WHERE "appUserId" = \(bind: id)
            UNION ALL SELECT 'app', "bundleId", "environment", "appTransactionId", "originalApplicationVersion", "originalPurchaseMs", "signedMs", \(unsafeRaw: number)
              FROM bk_app_transactions WHERE "appUserId" = \(bind: id)
            """).all(decoding: Row.self)
        var extras = CustomerExtras()
        for r in rows {
            switch r.kind {
            case "alias": extras.aliases.append(r.s1 ?? "")
            case "attribute": extras.attributes.append(AttributeRow(appUserId: id, key: r.s1 ?? "", value: r.s2 ?? "", updatedMs: r.n1 ?? 0))
            case "grant":
                extras.grants.append(GrantRow(id: r.s1 ?? "", appUserId: id, entitlement: r.s2 ?? "", bundleId: r.s3 ?? "",
                                              duration: r.s4 ?? "", startMs: r.n1 ?? 0, expiresMs: r.n2, revokedMs: r.n3))
            default:
                extras.appTransactions.append(AppTransactionRow(appUserId: id, bundleId: r.s1 ?? "", environment: r.s2 ?? "",
                                                                appTransactionId: r.s3, originalApplicationVersion: r.s4 ?? "",
                                                                originalPurchaseMs: r.n1 ?? 0, signedMs: r.n2 ?? 0))
            }
        }
        extras.aliases.sort()
        return extras
    }

    func links(environment: String, bundleId: String) async throws -> [LinkRow] {
        try await readSQL.select().columns("*").from("bk_links")
            .where("environment", .equal, environment).where("bundleId", .equal, bundleId)
            .orderBy("appUserId").all(decoding: LinkRow.self)
    }

    /// Every transaction of every subscription linked to the customer, in one statement; without
    /// the signed JWS, which customer info does not show.
    func transactions(appUserId: String) async throws -> [TransactionRow] {
        try await readSQL.select().columns(Self.withoutJWS(TransactionRow.columns, of: "bk_transactions"))
            .from("bk_transactions").join(SQLIdentifier("bk_links"), using: Self.chainColumns)
            .where(SQLColumn("appUserId", table: "bk_links"), .equal, SQLBind(appUserId)).all(decoding: TransactionRow.self)
    }

    /// The renewal info of every subscription linked to the customer, in one statement, without its JWS.
    func renewals(appUserId: String) async throws -> [RenewalRow] {
        try await readSQL.select().columns(Self.withoutJWS(RenewalRow.columns, of: "bk_renewals"))
            .from("bk_renewals").join(SQLIdentifier("bk_links"), using: Self.chainColumns)
            .where(SQLColumn("appUserId", table: "bk_links"), .equal, SQLBind(appUserId)).all(decoding: RenewalRow.self)
    }

    private static let chainColumns = SQLList([SQLIdentifier("environment"), SQLIdentifier("originalTransactionId")])

    /// The columns of `table`, with "" read in place of the (large) signed JWS.
    private static func withoutJWS(_ columns: [String], of table: String) -> [any SQLExpression] {
        columns.map { $0 == "jws" ? SQLAlias(SQLLiteral.string(""), as: SQLIdentifier("jws")) as any SQLExpression : SQLColumn($0, table: table) }
    }

    /// Every customer's stored Transaction History revision for one app, in one statement: a
    /// reconcile pass reads them once instead of once per customer.
    func revisions(environment: String, bundleId: String) async throws -> [String: String] {
        let rows = try await readSQL.select().columns("appUserId", "revision").from("bk_revisions")
            .where("environment", .equal, environment).where("bundleId", .equal, bundleId).all()
        var out: [String: String] = [:]
        for row in rows { out[try row.decode(column: "appUserId", as: String.self)] = try row.decode(column: "revision", as: String.self) }
        return out
    }

    /// Each subscription of one app with its renewal info and latest transaction side by side, in
    /// one statement: what a reconcile pass needs to find the subscriptions it cannot be sure of
    /// (`Reconciler`), without reading every renewal and then each latest transaction one by one.
    func subscriptionStates(environment: String, bundleId: String) async throws -> [SubscriptionStateRow] {
        let rows = try await readSQL.raw("""
            SELECT r."originalTransactionId", r."autoRenewStatus", r."expirationIntent", r."inBillingRetry",
                   t."expiresMs", t."revocationMs"
            FROM bk_renewals r JOIN bk_transactions t
              ON t."environment" = r."environment" AND t."originalTransactionId" = r."originalTransactionId"
            WHERE r."environment" = \(bind: environment) AND t."bundleId" = \(bind: bundleId)
              AND t."purchaseMs" = (SELECT MAX(l."purchaseMs") FROM bk_transactions l
                                    WHERE l."environment" = r."environment" AND l."originalTransactionId" = r."originalTransactionId")
            """).all(decoding: SubscriptionStateRow.self)
        // Two transactions of one subscription bought in the same millisecond: either is the latest.
        var seen = Set<String>()
        return rows.filter { seen.insert($0.originalTransactionId).inserted }
    }

    func notificationCount() async throws -> Int {
        try await readSQL.select().column("notificationUUID").from("bk_notifications").all().count
    }

    /// Event bodies, oldest first.
    func eventBodies(appUserId: String?, limit: Int) async throws -> [String] {
        var query = readSQL.select().column("body").from("bk_events")
        if let appUserId { query = query.where("appUserId", .equal, appUserId) }
        return try await query.orderBy("seq", .ascending).limit(limit).all(decodingColumn: "body", as: String.self)
    }

    func eventBody(id: String) async throws -> String? {
        try await readSQL.select().column("body").from("bk_events").where("id", .equal, id)
            .first(decodingColumn: "body", as: String.self)
    }

    /// The soonest next attempt of a pending webhook, if any: the dispatcher sleeps until then.
    func nextOutboxAttemptMs() async throws -> Int64? {
        try await readSQL.select()
            .column(SQLAlias(SQLFunction("MIN", args: SQLIdentifier("nextAttemptMs")), as: SQLIdentifier("due")))
            .from("bk_outbox").where("state", .equal, "pending")
            .first(decodingColumn: "due", as: Int64?.self) ?? nil
    }

    func outboxStates() async throws -> [String] {
        try await readSQL.select().column("state").from("bk_outbox").all(decodingColumn: "state", as: String.self)
    }

    /// The delivery log, newest first.
    func deliveries(eventId: String?, limit: Int) async throws -> [DeliveryRow] {
        var query = readSQL.select().columns("*").from("bk_deliveries")
        if let eventId { query = query.where("eventId", .equal, eventId) }
        return try await query.orderBy("atMs", .descending).limit(limit).all(decoding: DeliveryRow.self)
    }
}
