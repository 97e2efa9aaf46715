import SQLKit

/// The statements of refund control (`RefundResponder`): requests leased, answered and decided,
/// and the consent the app records. Leases work as the webhook outbox's do: the row's next
/// attempt moves to the lease's end, in a write that no other instance runs at the same time.
extension BackendTransaction {
    /// Takes up to `limit` pending requests that are due, soonest first, until `untilMs`.
    func leaseDueRefundRequests(nowMs: Int64, limit: Int, untilMs: Int64) async throws -> [RefundRequestRow] {
        let due = try await sql.select().columns("*").from("bk_refund_requests")
            .where("state", .equal, RefundRequestState.pending).where("nextAttemptMs", .lessThanOrEqual, nowMs)
            .orderBy("nextAttemptMs").limit(limit).all(decoding: RefundRequestRow.self)
        for row in due {
            try await sql.update("bk_refund_requests").set("nextAttemptMs", to: untilMs)
                .where("notificationUUID", .equal, row.notificationUUID).run()
        }
        return due
    }

    /// Saves `row` (the outcome of an attempt) if the lease taken with `untilMs` on `leased` still
    /// holds; returns whether it did.
    func saveAttempt(_ row: RefundRequestRow, leased: RefundRequestRow, untilMs: Int64) async throws -> Bool {
        let current = try await sql.select().columns("*").from("bk_refund_requests")
            .where("notificationUUID", .equal, leased.notificationUUID).first(decoding: RefundRequestRow.self)
        guard let current, current.state == RefundRequestState.pending, current.attempts == leased.attempts,
              current.nextAttemptMs == untilMs else { return false }
        try await sql.update("bk_refund_requests").set(model: row, nilEncodingStrategy: .asNil)
            .where("notificationUUID", .equal, row.notificationUUID).run()
        return true
    }

    /// Hands back leased requests that were not attempted: due again at once.
    func releaseRefundLeases(_ rows: [RefundRequestRow], untilMs: Int64) async throws {
        for row in rows {
            try await sql.update("bk_refund_requests").set("nextAttemptMs", to: row.nextAttemptMs)
                .where("notificationUUID", .equal, row.notificationUUID).where("state", .equal, RefundRequestState.pending)
                .where("attempts", .equal, row.attempts).where("nextAttemptMs", .equal, untilMs).run()
        }
    }

    /// The App Store's decision on a transaction's refund requests not decided yet.
    func decideRefundRequests(environment: String, transactionId: String, outcome: String, atMs: Int64) async throws {
        try await sql.update("bk_refund_requests").set("outcome", to: outcome).set("outcomeMs", to: atMs)
            .where("environment", .equal, environment).where("transactionId", .equal, transactionId)
            .where(SQLColumn("outcome"), .is, SQLLiteral.null).run()
    }

    /// Records (or replaces) what the app says of a customer's consent.
    func save(_ consent: ConsentRow) async throws {
        try await insert([consent], into: "bk_consents", replacingOn: ["appUserId"])
    }
}

extension BackendDatabase {
    /// Whether the app recorded the customer's consent (false when it recorded none).
    func consented(_ appUserId: String) async throws -> Bool {
        try await readSQL.select().columns("*").from("bk_consents").where("appUserId", .equal, appUserId)
            .first(decoding: ConsentRow.self)?.consented ?? false
    }

    /// The customer a subscription or purchase is linked to.
    func owner(environment: String, original: String) async throws -> String? {
        try await readSQL.select().column("appUserId").from("bk_links").where("environment", .equal, environment)
            .where("originalTransactionId", .equal, original).first(decodingColumn: "appUserId", as: String.self)
    }

    /// The newest refund requests first.
    func refundRequests(limit: Int) async throws -> [RefundRequestRow] {
        try await readSQL.select().columns("*").from("bk_refund_requests").orderBy("requestedMs", .descending)
            .limit(limit).all(decoding: RefundRequestRow.self)
    }

    /// Every request's state and outcome (of one environment, or all), for the counts.
    func refundRequestStates(environment: String?) async throws -> [(state: String, outcome: String?)] {
        var query = readSQL.select().columns("state", "outcome").from("bk_refund_requests")
        if let environment { query = query.where("environment", .equal, environment) }
        return try await query.all().map {
            (try $0.decode(column: "state", as: String.self), try $0.decode(column: "outcome", as: String?.self))
        }
    }

    /// When the soonest pending request is due; nil when none is pending.
    func nextRefundAttemptMs() async throws -> Int64? {
        try await readSQL.select().column(SQLFunction("MIN", args: SQLColumn("nextAttemptMs")), as: "m").from("bk_refund_requests")
            .where("state", .equal, RefundRequestState.pending).first(decodingColumn: "m", as: Int64?.self).flatMap { $0 }
    }
}
