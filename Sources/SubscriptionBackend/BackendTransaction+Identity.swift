import Foundation
import SQLKit

/// The statements that move a customer's rows to another ID: a merge (an anonymous customer into
/// an identified one) and a deletion (every personal row erased, the revenue rows given a
/// stand-in ID). The rules are `CustomerIdentity`'s.
extension BackendTransaction {
    /// The latest store clock reading over every app and environment, read in this write (never
    /// on the read connection from inside a write).
    func storeClock() async throws -> Int64? { try await BackendDatabase.storeClock(sql) }

    /// Tables whose rows belong to a customer by its `appUserId` and simply follow it.
    private static let followingTables = ["bk_links", "bk_events", "bk_aliases", "bk_grants", "bk_user_aliases"]

    /// Every row of `from` becomes `into`'s; `from` becomes an alias of `into`. Where both have a
    /// value (an attribute, the refund consent) `into`'s stays. `into` keeps the earlier first sighting,
    /// and with it the ID it was first known by (`originalAppUserId`).
    func mergeCustomer(from: String, into: String) async throws {
        let rows = try await sql.select().columns("*").from("bk_customers").where("appUserId", .in, [from, into])
            .all(decoding: CustomerRow.self)
        let old = rows.first { $0.appUserId == from }
        for table in Self.followingTables {
            try await sql.update(table).set("appUserId", to: into).where("appUserId", .equal, from).run()
        }
        try await sql.delete(from: "bk_revisions").where("appUserId", .equal, from).run()
        try await sql.raw("""
            INSERT INTO \(ident: "bk_attributes") (\(ident: "appUserId"), \(ident: "key"), \(ident: "value"), \(ident: "updatedMs")) \
            SELECT \(bind: into), \(ident: "key"), \(ident: "value"), \(ident: "updatedMs") FROM \(ident: "bk_attributes") \
            WHERE \(ident: "appUserId") = \(bind: from) ON CONFLICT DO NOTHING
            """).run()
        try await sql.raw("""
            INSERT INTO \(ident: "bk_consents") (\(ident: "appUserId"), \(ident: "consented"), \(ident: "recordedMs")) \
            SELECT \(bind: into), \(ident: "consented"), \(ident: "recordedMs") FROM \(ident: "bk_consents") \
            WHERE \(ident: "appUserId") = \(bind: from) ON CONFLICT DO NOTHING
            """).run()
        try await sql.raw("""
            INSERT INTO \(ident: "bk_app_transactions") (\(ident: "appUserId"), \(ident: "bundleId"), \(ident: "environment"), \
            \(ident: "appTransactionId"), \(ident: "originalApplicationVersion"), \(ident: "originalPurchaseMs"), \(ident: "signedMs")) \
            SELECT \(bind: into), \(ident: "bundleId"), \(ident: "environment"), \(ident: "appTransactionId"), \
            \(ident: "originalApplicationVersion"), \(ident: "originalPurchaseMs"), \(ident: "signedMs") FROM \(ident: "bk_app_transactions") \
            WHERE \(ident: "appUserId") = \(bind: from) ON CONFLICT DO NOTHING
            """).run()
        try await sql.raw("""
            INSERT INTO \(ident: "bk_enrollments") (\(ident: "experimentId"), \(ident: "appUserId"), \(ident: "variant"), \(ident: "enrolledMs")) \
            SELECT \(ident: "experimentId"), \(bind: into), \(ident: "variant"), \(ident: "enrolledMs") FROM \(ident: "bk_enrollments") \
            WHERE \(ident: "appUserId") = \(bind: from) ON CONFLICT DO NOTHING
            """).run()
        for table in ["bk_attributes", "bk_consents", "bk_app_transactions", "bk_enrollments", "bk_customers"] {
            try await sql.delete(from: table).where("appUserId", .equal, from).run()
        }
        guard let old else { return }
        var merged = rows.first { $0.appUserId == into } ?? CustomerRow(appUserId: into, firstSeenMs: old.firstSeenMs)
        if old.firstSeenMs < merged.firstSeenMs || merged.originalAppUserId == nil && old.firstSeenMs == merged.firstSeenMs {
            merged.firstSeenMs = old.firstSeenMs
            merged.originalAppUserId = old.originalAppUserId ?? old.appUserId
        }
        merged.lastSeenMs = [merged.lastSeenMs, old.lastSeenMs].compactMap { $0 }.max()
        // The earliest sighting on the store's clock, unless one side was recorded before it was
        // kept: then none (the charts fall back to the first purchase, else `firstSeenMs`).
        if let a = merged.firstSeenStoreMs, let b = old.firstSeenStoreMs {
            merged.firstSeenStoreMs = min(a, b)
        } else {
            merged.firstSeenStoreMs = nil
        }
        try await insert([merged], into: "bk_customers", replacingOn: ["appUserId"])
        try await insert([UserAliasRow(alias: from, appUserId: into, firstSeenMs: old.firstSeenMs)], into: "bk_user_aliases",
                         replacingOn: ["alias"])
    }

    /// Erases customer `id`: its attributes, grants, consent, aliases and tokens are deleted; its
    /// purchases, events and revisions are given `standIn` (so every figure stays the same) and
    /// every event body naming it is rewritten. The customer row becomes `standIn`'s, dated as before.
    func deleteCustomer(_ id: String, standIn: String) async throws {
        let aliases = try await sql.select().column("alias").from("bk_user_aliases").where("appUserId", .equal, id)
            .all(decodingColumn: "alias", as: String.self)
        let names = Set([id] + aliases)
        // The tokens the customer claimed, and the customer's own ID when a token named them.
        let tokens = try await sql.select().column("appAccountToken").from("bk_aliases").where("appUserId", .equal, id)
            .all(decodingColumn: "appAccountToken", as: String.self) + [id.lowercased()]
        try await rewriteEvents(naming: names, as: standIn)
        for table in ["bk_links", "bk_events", "bk_revisions", "bk_enrollments"] {
            try await sql.update(table).set("appUserId", to: standIn).where("appUserId", .equal, id).run()
        }
        for table in ["bk_aliases", "bk_user_aliases", "bk_attributes", "bk_grants", "bk_consents", "bk_app_transactions"] {
            try await sql.delete(from: table).where("appUserId", .equal, id).run()
        }
        try await sql.delete(from: "bk_user_aliases").where("alias", .in, Array(names)).run()
        if !tokens.isEmpty {
            try await sql.update("bk_transactions").set("appAccountToken", to: SQLLiteral.null).where("appAccountToken", .in, tokens).run()
        }
        let row = try await sql.select().columns("*").from("bk_customers").where("appUserId", .equal, id).first(decoding: CustomerRow.self)
        try await sql.delete(from: "bk_customers").where("appUserId", .equal, id).run()
        if let row {
            try await insert([CustomerRow(appUserId: standIn, firstSeenMs: row.firstSeenMs, firstSeenStoreMs: row.firstSeenStoreMs)],
                             into: "bk_customers")
        }
    }

    /// Event bodies that name any of `names` (as the customer or in a transfer) name `standIn` instead.
    private func rewriteEvents(naming names: Set<String>, as standIn: String) async throws {
        struct Body: Decodable { var id: String; var body: String }
        var found: [String: String] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]   // as `WebhookPayload.json()` writes bodies
        for name in names {
            let quoted = String(decoding: try encoder.encode(name), as: UTF8.self)
            let pattern = "%" + quoted.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            let rows = try await sql.raw("""
                SELECT \(ident: "id"), \(ident: "body") FROM \(ident: "bk_events") \
                WHERE \(ident: "appUserId") = \(bind: name) OR \(ident: "body") LIKE \(bind: pattern) ESCAPE '\\'
                """).all(decoding: Body.self)
            for row in rows { found[row.id] = row.body }
        }
        for (id, body) in found {
            guard var payload = try? JSONDecoder().decode(WebhookPayload.self, from: Data(body.utf8)) else { continue }
            payload.replaceCustomer(names, with: standIn)
            try await sql.update("bk_events").set("body", to: payload.json()).where("id", .equal, id).run()
        }
    }

    // MARK: reads a customer's writes need

    /// The customer an ID names: itself when it is a customer, the customer it is an alias of, else nil.
    func resolve(_ id: String) async throws -> String? {
        if try await customerExists(id) { return id }
        return try await sql.select().column("appUserId").from("bk_user_aliases").where("alias", .equal, id)
            .first(decodingColumn: "appUserId", as: String.self)
    }

    func attributes(of appUserId: String) async throws -> [AttributeRow] {
        try await sql.select().columns("*").from("bk_attributes").where("appUserId", .equal, appUserId).all(decoding: AttributeRow.self)
    }

    func removeAttributes(_ keys: [String], of appUserId: String) async throws {
        guard !keys.isEmpty else { return }
        try await sql.delete(from: "bk_attributes").where("appUserId", .equal, appUserId).where("key", .in, keys).run()
    }

    /// The grants of `entitlement` not revoked and not ended at `atMs`: what a revoke ends.
    func runningGrants(of appUserId: String, entitlement: String, atMs: Int64) async throws -> [GrantRow] {
        try await sql.select().columns("*").from("bk_grants").where("appUserId", .equal, appUserId)
            .where("entitlement", .equal, entitlement).where(SQLColumn("revokedMs"), .is, SQLLiteral.null)
            .all(decoding: GrantRow.self).filter { ($0.expiresMs ?? Int64.max) > atMs }
    }

    func revokeGrants(of appUserId: String, entitlement: String, atMs: Int64) async throws {
        try await sql.update("bk_grants").set("revokedMs", to: atMs).where("appUserId", .equal, appUserId)
            .where("entitlement", .equal, entitlement).where(SQLColumn("revokedMs"), .is, SQLLiteral.null).run()
    }

    /// Keeps `row` unless a newer signing of the same app transaction is stored.
    func save(_ row: AppTransactionRow) async throws {
        let stored = try await sql.select().column("signedMs").from("bk_app_transactions").where("appUserId", .equal, row.appUserId)
            .where("bundleId", .equal, row.bundleId).where("environment", .equal, row.environment)
            .first(decodingColumn: "signedMs", as: Int64.self)
        if let stored, stored > row.signedMs { return }
        try await insert([row], into: "bk_app_transactions", replacingOn: ["appUserId", "bundleId", "environment"])
    }

    /// Records when the app last asked about each customer (a later time only).
    func saw(_ sightings: [String: Int64]) async throws {
        for (user, ms) in sightings {
            try await sql.raw("""
                UPDATE \(ident: "bk_customers") SET \(ident: "lastSeenMs") = \(bind: ms) \
                WHERE \(ident: "appUserId") = \(bind: user) AND (\(ident: "lastSeenMs") IS NULL OR \(ident: "lastSeenMs") < \(bind: ms))
                """).run()
        }
    }
}
