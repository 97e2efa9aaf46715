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
    func storeClock() async throws -> Int64? {
        try await readSQL.select().column(SQLFunction("MAX", args: SQLColumn("storeClockMs")), as: "m").from("bk_cursors")
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

    func attributes(appUserId: String) async throws -> [AttributeRow] {
        try await readSQL.select().columns("*").from("bk_attributes").where("appUserId", .equal, appUserId).all(decoding: AttributeRow.self)
    }

    func grants(appUserId: String) async throws -> [GrantRow] {
        try await readSQL.select().columns("*").from("bk_grants").where("appUserId", .equal, appUserId).all(decoding: GrantRow.self)
    }

    func appTransactions(appUserId: String) async throws -> [AppTransactionRow] {
        try await readSQL.select().columns("*").from("bk_app_transactions").where("appUserId", .equal, appUserId)
            .all(decoding: AppTransactionRow.self)
    }

    func userAliases(appUserId: String) async throws -> [String] {
        try await readSQL.select().column("alias").from("bk_user_aliases").where("appUserId", .equal, appUserId)
            .orderBy("alias").all(decodingColumn: "alias", as: String.self)
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
