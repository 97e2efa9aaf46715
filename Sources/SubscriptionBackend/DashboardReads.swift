import SQLKit

/// The dashboard's reads, on the read connection (they never wait for a write). Standard SQL
/// only (quoted identifiers, bound parameters, `EXISTS` and `GROUP BY`), so they run unchanged
/// on SQLite and PostgreSQL.
extension BackendDatabase {
    /// `table.column`, both quoted.
    private static func column(_ table: String, _ name: String) -> SQLQueryString { "\(ident: table).\(ident: name)" }

    /// The columns the overview needs: all but the JWS (kilobytes per row, and unused).
    static let overviewColumns = [
        "environment", "transactionId", "originalTransactionId", "bundleId", "productId", "groupId", "type", "purchaseMs",
        "originalPurchaseMs", "expiresMs", "revocationMs", "revocationType", "price", "currency", "ownership", "offerType",
        "offerDiscountType", "reason", "appAccountToken", "isUpgraded", "signedMs", "storefront",
    ]

    /// Every transaction bought or still running since `sinceMs` (a subscription's older periods
    /// cannot show on the charts, and are not read: a long history stays on disk).
    func overviewTransactions(environment: String?, sinceMs: Int64) async throws -> [TransactionRow] {
        var query: SQLQueryString = "SELECT \(idents: Self.overviewColumns, joinedBy: ", ") FROM \(ident: "bk_transactions") WHERE "
        if let environment { query += "\(ident: "environment") = \(bind: environment) AND " }
        query += "(\(ident: "purchaseMs") >= \(bind: sinceMs) OR \(ident: "expiresMs") >= \(bind: sinceMs))"
        return try await readSQL.raw(query).all(decoding: OverviewTransactionRow.self).map(\.row)
    }

    /// For each subscription with a transaction bought or running since `sinceMs`, the purchase
    /// date of its latest transaction (keyed `environment|originalTransactionId`): a subscription
    /// whose latest transaction ended before then (an upgrade's older, longer period may still
    /// run on paper) is over, whatever its older transactions say.
    func latestPurchases(environment: String?, sinceMs: Int64) async throws -> [String: Int64] {
        var query: SQLQueryString = """
            SELECT \(ident: "environment"), \(ident: "originalTransactionId"), MAX(\(ident: "purchaseMs")) AS \(ident: "latestMs") \
            FROM \(ident: "bk_transactions") WHERE \(ident: "type") = \(bind: EventRules.autoRenewable)
            """
        if let environment { query += " AND \(ident: "environment") = \(bind: environment)" }
        query += """
             GROUP BY \(ident: "environment"), \(ident: "originalTransactionId") \
            HAVING MAX(\(ident: "purchaseMs")) >= \(bind: sinceMs) OR MAX(\(ident: "expiresMs")) >= \(bind: sinceMs)
            """
        struct Latest: Decodable { var environment: String; var originalTransactionId: String; var latestMs: Int64 }
        let rows = try await readSQL.raw(query).all(decoding: Latest.self)
        return Dictionary(rows.map { ("\($0.environment)|\($0.originalTransactionId)", $0.latestMs) }, uniquingKeysWith: max)
    }

    /// The renewal info of the subscriptions `overviewTransactions` returns.
    func overviewRenewals(environment: String?, sinceMs: Int64) async throws -> [RenewalRow] {
        let columns = ["environment", "originalTransactionId", "productId", "autoRenewProductId", "autoRenewStatus",
                       "expirationIntent", "inBillingRetry", "gracePeriodExpiresMs", "signedMs"]
        var query: SQLQueryString = "SELECT \(idents: columns, joinedBy: ", ") FROM \(ident: "bk_renewals") WHERE "
        if let environment { query += "\(ident: "environment") = \(bind: environment) AND " }
        query += """
            EXISTS (SELECT 1 FROM \(ident: "bk_transactions") \(ident: "r") \
            WHERE \(Self.column("r", "environment")) = \(Self.column("bk_renewals", "environment")) \
            AND \(Self.column("r", "originalTransactionId")) = \(Self.column("bk_renewals", "originalTransactionId")) \
            AND (\(Self.column("r", "purchaseMs")) >= \(bind: sinceMs) OR \(Self.column("r", "expiresMs")) >= \(bind: sinceMs)))
            """
        return try await readSQL.raw(query).all(decoding: OverviewRenewalRow.self).map(\.row)
    }

    /// When each customer first seen since `sinceMs` was first seen (the charts' rule,
    /// `ChartRules.World`): the earlier of their first purchase (in `environment`, when given) and
    /// when the backend first heard of them on the store's clock; for a customer recorded before
    /// that was kept, the first purchase, else (no purchase at all, and no environment asked for)
    /// the backend's clock.
    func customerStarts(environment: String?, sinceMs: Int64) async throws -> [Int64] {
        let link = "l", tx = "t"
        var query: SQLQueryString = """
            SELECT MIN(\(Self.column(tx, "purchaseMs"))) AS \(ident: "firstMs"), \(Self.column("c", "firstSeenStoreMs")) \
            FROM \(ident: "bk_links") \(ident: link) JOIN \(ident: "bk_transactions") \(ident: tx) \
            ON \(Self.column(tx, "environment")) = \(Self.column(link, "environment")) \
            AND \(Self.column(tx, "originalTransactionId")) = \(Self.column(link, "originalTransactionId")) \
            LEFT JOIN \(ident: "bk_customers") \(ident: "c") ON \(Self.column("c", "appUserId")) = \(Self.column(link, "appUserId"))
            """
        if let environment { query += " WHERE \(Self.column(link, "environment")) = \(bind: environment)" }
        query += """
             GROUP BY \(Self.column(link, "appUserId")), \(Self.column("c", "firstSeenStoreMs")) \
            HAVING MIN(\(Self.column(tx, "purchaseMs"))) >= \(bind: sinceMs)
            """
        struct Start: Decodable { var firstMs: Int64; var firstSeenStoreMs: Int64? }
        var starts = try await readSQL.raw(query).all(decoding: Start.self)
            .map { min($0.firstMs, $0.firstSeenStoreMs ?? $0.firstMs) }.filter { $0 >= sinceMs }
        if environment == nil {
            let unlinked: SQLQueryString = """
                SELECT COALESCE(\(Self.column("c", "firstSeenStoreMs")), \(Self.column("c", "firstSeenMs"))) AS \(ident: "firstSeenMs") \
                FROM \(ident: "bk_customers") \(ident: "c") \
                WHERE COALESCE(\(Self.column("c", "firstSeenStoreMs")), \(Self.column("c", "firstSeenMs"))) >= \(bind: sinceMs) AND NOT EXISTS (\
                SELECT 1 FROM \(ident: "bk_links") \(ident: link) JOIN \(ident: "bk_transactions") \(ident: tx) \
                ON \(Self.column(tx, "environment")) = \(Self.column(link, "environment")) \
                AND \(Self.column(tx, "originalTransactionId")) = \(Self.column(link, "originalTransactionId")) \
                WHERE \(Self.column(link, "appUserId")) = \(Self.column("c", "appUserId")))
                """
            starts += try await readSQL.raw(unlinked).all(decodingColumn: "firstSeenMs", as: Int64.self)
        }
        return starts
    }

    func customerCount() async throws -> Int {
        try await readSQL.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("bk_customers")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Customers whose app user ID is `text` or starts with it, or who own a transaction,
    /// original transaction or `appAccountToken` equal to `text`; at most `limit`, by app user ID.
    func searchCustomers(_ text: String, limit: Int) async throws -> [DashboardCustomerMatch] {
        var found: [String: String] = [:]
        func add(_ users: [String], _ how: String) {
            for user in users where found[user] == nil { found[user] = how }
        }
        add(try await readSQL.select().column("appUserId").from("bk_customers").where("appUserId", .equal, text)
                .all(decodingColumn: "appUserId", as: String.self), "app user ID")
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let prefix: SQLQueryString = """
            SELECT \(ident: "appUserId") FROM \(ident: "bk_customers") \
            WHERE \(ident: "appUserId") LIKE \(bind: escaped + "%") ESCAPE '\\' ORDER BY \(ident: "appUserId") LIMIT \(literal: limit)
            """
        add(try await readSQL.raw(prefix).all(decodingColumn: "appUserId", as: String.self), "app user ID starts with it")
        add(try await readSQL.select().column("appUserId").from("bk_links").where("originalTransactionId", .equal, text)
                .all(decodingColumn: "appUserId", as: String.self), "original transaction ID")
        let byTransaction: SQLQueryString = """
            SELECT \(Self.column("l", "appUserId")) FROM \(ident: "bk_links") \(ident: "l") JOIN \(ident: "bk_transactions") \(ident: "t") \
            ON \(Self.column("t", "environment")) = \(Self.column("l", "environment")) \
            AND \(Self.column("t", "originalTransactionId")) = \(Self.column("l", "originalTransactionId")) \
            WHERE \(Self.column("t", "transactionId")) = \(bind: text)
            """
        add(try await readSQL.raw(byTransaction).all(decodingColumn: "appUserId", as: String.self), "transaction ID")
        let token = text.lowercased()
        add(try await readSQL.select().column("appUserId").from("bk_aliases").where("appAccountToken", .equal, token)
                .all(decodingColumn: "appUserId", as: String.self), "appAccountToken")
        let byToken: SQLQueryString = """
            SELECT \(Self.column("l", "appUserId")) FROM \(ident: "bk_links") \(ident: "l") JOIN \(ident: "bk_transactions") \(ident: "t") \
            ON \(Self.column("t", "environment")) = \(Self.column("l", "environment")) \
            AND \(Self.column("t", "originalTransactionId")) = \(Self.column("l", "originalTransactionId")) \
            WHERE \(Self.column("t", "appAccountToken")) = \(bind: token)
            """
        add(try await readSQL.raw(byToken).all(decodingColumn: "appUserId", as: String.self), "appAccountToken")
        return try await withCustomers(found.keys.sorted().prefix(limit).map { ($0, found[$0]!) })
    }

    /// The customers first seen last, newest first.
    func recentCustomers(limit: Int) async throws -> [DashboardCustomerMatch] {
        let rows = try await readSQL.select().columns("*").from("bk_customers")
            .orderBy("firstSeenMs", .descending).orderBy("appUserId").limit(limit).all(decoding: CustomerRow.self)
        return rows.map { DashboardCustomerMatch(appUserId: $0.appUserId, firstSeenMs: $0.firstSeenMs, matchedBy: nil) }
    }

    private func withCustomers(_ users: [(String, String)]) async throws -> [DashboardCustomerMatch] {
        var out: [DashboardCustomerMatch] = []
        for (user, how) in users {
            out.append(DashboardCustomerMatch(appUserId: user, firstSeenMs: try await customer(user)?.firstSeenMs, matchedBy: how))
        }
        return out
    }

    /// The outbox rows (one per webhook URL) of a customer's events.
    func outbox(appUserId: String) async throws -> [OutboxRow] {
        let columns = ["eventId", "url", "attempts", "nextAttemptMs", "state", "lastStatus", "lastError"]
            .map { Self.column("o", $0) }.joined(separator: ", ")
        let query: SQLQueryString = """
            SELECT \(columns) FROM \(ident: "bk_outbox") \(ident: "o") JOIN \(ident: "bk_events") \(ident: "e") ON \(Self.column("e", "id")) = \(Self.column("o", "eventId")) \
            WHERE \(Self.column("e", "appUserId")) = \(bind: appUserId)
            """
        return try await readSQL.raw(query).all(decoding: OutboxRow.self)
    }
}

/// A customer found by the dashboard's lookup, and what matched.
struct DashboardCustomerMatch: Sendable, Equatable {
    var appUserId: String
    var firstSeenMs: Int64?
    var matchedBy: String?
}

/// `bk_transactions` without its JWS.
private struct OverviewTransactionRow: Decodable {
    var environment: String
    var transactionId: String
    var originalTransactionId: String
    var bundleId: String
    var productId: String
    var groupId: String?
    var type: String
    var purchaseMs: Int64
    var originalPurchaseMs: Int64?
    var expiresMs: Int64?
    var revocationMs: Int64?
    var revocationType: String?
    var price: Int64?
    var currency: String?
    var ownership: String
    var offerType: Int?
    var offerDiscountType: String?
    var reason: String?
    var appAccountToken: String?
    var isUpgraded: Bool
    var signedMs: Int64
    var storefront: String?

    var row: TransactionRow {
        TransactionRow(
            environment: environment, transactionId: transactionId, originalTransactionId: originalTransactionId,
            bundleId: bundleId, productId: productId, groupId: groupId, type: type, purchaseMs: purchaseMs,
            originalPurchaseMs: originalPurchaseMs, expiresMs: expiresMs, revocationMs: revocationMs, revocationType: revocationType,
            price: price, currency: currency, ownership: ownership, offerType: offerType, offerDiscountType: offerDiscountType,
            reason: reason, appAccountToken: appAccountToken, isUpgraded: isUpgraded, signedMs: signedMs, jws: "",
            storefront: storefront)
    }
}

/// `bk_renewals` without its JWS.
private struct OverviewRenewalRow: Decodable {
    var environment: String
    var originalTransactionId: String
    var productId: String?
    var autoRenewProductId: String?
    var autoRenewStatus: Int?
    var expirationIntent: Int?
    var inBillingRetry: Bool
    var gracePeriodExpiresMs: Int64?
    var signedMs: Int64

    var row: RenewalRow {
        RenewalRow(environment: environment, originalTransactionId: originalTransactionId, productId: productId,
                   autoRenewProductId: autoRenewProductId, autoRenewStatus: autoRenewStatus, expirationIntent: expirationIntent,
                   inBillingRetry: inBillingRetry, gracePeriodExpiresMs: gracePeriodExpiresMs, signedMs: signedMs, jws: "")
    }
}

extension BackendDatabase {
    /// The rows the charts read: every transaction the filters admit (without its JWS), renewal
    /// info, who owns each purchase, each customer's first-seen time and the refund requests. The
    /// whole history: a cohort's lifetime value and a resubscription need it.
    func chartRows(_ filters: ChartFilters) async throws -> (transactions: [TransactionRow], renewals: [RenewalRow],
                                                             owners: [String: String], customers: [(String, Int64, Int64?)],
                                                             firstPurchases: [String: Int64], refundRequests: [(String, Int64)]) {
        guard filters.admitsAppStore else { return ([], [], [:], [], [:], []) }
        // The app and environment filters choose whole subscriptions; product and country are
        // applied per transaction by the rules, which need every period of a subscription.
        var query = readSQL.select().columns(Self.overviewColumns.map { SQLColumn($0) }).from("bk_transactions")
        for (column, values) in [("environment", filters.environment), ("bundleId", filters.app)] where !values.isEmpty {
            query = query.where(SQLColumn(column), .in, SQLBind.group(values))
        }
        let transactions = try await query.all(decoding: OverviewTransactionRow.self).map(\.row)
        var renewalQuery = readSQL.select().columns(["environment", "originalTransactionId", "productId", "autoRenewProductId",
                                                     "autoRenewStatus", "expirationIntent", "inBillingRetry", "gracePeriodExpiresMs",
                                                     "signedMs"].map { SQLColumn($0) }).from("bk_renewals")
        if !filters.environment.isEmpty { renewalQuery = renewalQuery.where(SQLColumn("environment"), .in, SQLBind.group(filters.environment)) }
        let renewals = try await renewalQuery.all(decoding: OverviewRenewalRow.self).map(\.row)
        struct Owner: Decodable { var environment: String; var originalTransactionId: String; var appUserId: String }
        let owners = try await readSQL.select().columns("environment", "originalTransactionId", "appUserId").from("bk_links")
            .all(decoding: Owner.self)
        struct Seen: Decodable { var appUserId: String; var firstSeenMs: Int64; var firstSeenStoreMs: Int64? }
        let customers = try await readSQL.select().columns("appUserId", "firstSeenMs", "firstSeenStoreMs").from("bk_customers")
            .all(decoding: Seen.self)
        let first: SQLQueryString = """
            SELECT \(Self.column("l", "appUserId")), MIN(\(Self.column("t", "purchaseMs"))) AS \(ident: "firstMs") \
            FROM \(ident: "bk_links") \(ident: "l") JOIN \(ident: "bk_transactions") \(ident: "t") \
            ON \(Self.column("t", "environment")) = \(Self.column("l", "environment")) \
            AND \(Self.column("t", "originalTransactionId")) = \(Self.column("l", "originalTransactionId")) \
            GROUP BY \(Self.column("l", "appUserId"))
            """
        struct First: Decodable { var appUserId: String; var firstMs: Int64 }
        let firstPurchases = try await readSQL.raw(first).all(decoding: First.self)
        struct Request: Decodable { var environment: String; var transactionId: String; var requestedMs: Int64 }
        let requests = try await readSQL.select().columns("environment", "transactionId", "requestedMs").from("bk_refund_requests")
            .all(decoding: Request.self)
        return (transactions, renewals,
                Dictionary(owners.map { (ChartRules.key($0.environment, $0.originalTransactionId), $0.appUserId) }, uniquingKeysWith: { a, _ in a }),
                customers.map { ($0.appUserId, $0.firstSeenMs, $0.firstSeenStoreMs) },
                Dictionary(firstPurchases.map { ($0.appUserId, $0.firstMs) }, uniquingKeysWith: min),
                requests.map { (ChartRules.key($0.environment, $0.transactionId), $0.requestedMs) })
    }
}
