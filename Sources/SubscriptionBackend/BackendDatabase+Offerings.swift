import Foundation
import SQLKit

/// The statements of offerings and experiments: reads on the read connection, writes inside a
/// write transaction (`BackendTransaction`). No rules: `Offering` and `ExperimentRules` decide.
extension BackendDatabase {
    /// The app's offerings by ID, and which one is current.
    func offerings(bundleId: String) async throws -> (current: String?, offerings: [Offering]) {
        let rows = try await readSQL.select().columns("*").from("bk_offerings").where("bundleId", .equal, bundleId)
            .orderBy("id").all(decoding: OfferingRow.self)
        let offerings = rows.compactMap { try? JSONDecoder().decode(Offering.self, from: Data($0.body.utf8)) }
        return (rows.first(where: \.isCurrent)?.id, offerings)
    }

    func experiment(id: String) async throws -> Experiment? {
        try await readSQL.select().columns("*").from("bk_experiments").where("id", .equal, id).first(decoding: Experiment.self)
    }

    func experiments(bundleId: String?) async throws -> [Experiment] {
        var query = readSQL.select().columns("*").from("bk_experiments")
        if let bundleId { query = query.where("bundleId", .equal, bundleId) }
        return try await query.orderBy("startMs", .descending).orderBy("id").all(decoding: Experiment.self)
    }

    /// Everyone enrolled in the experiment, with every transaction of theirs in its app.
    func enrolled(in experiment: Experiment) async throws -> [ExperimentRules.Enrolled] {
        let enrollments = try await readSQL.select().columns("*").from("bk_enrollments")
            .where("experimentId", .equal, experiment.id).all(decoding: EnrollmentRow.self)
        struct Owned: Decodable { var appUserId: String }
        let rows = try await readSQL.raw("""
            SELECT l."appUserId", t.* FROM bk_enrollments e
              JOIN bk_links l ON l."appUserId" = e."appUserId"
              JOIN bk_transactions t ON t."environment" = l."environment" AND t."originalTransactionId" = l."originalTransactionId"
            WHERE e."experimentId" = \(bind: experiment.id) AND t."bundleId" = \(bind: experiment.bundleId)
            """).all()
        var byUser: [String: [TransactionRow]] = [:]
        for row in rows {
            let owner = try row.decode(model: Owned.self)
            byUser[owner.appUserId, default: []].append(try row.decode(model: TransactionRow.self))
        }
        return enrollments.map {
            ExperimentRules.Enrolled(appUserId: $0.appUserId, variant: $0.variant, enrolledMs: $0.enrolledMs,
                                     transactions: byUser[$0.appUserId] ?? [])
        }
    }
}

extension BackendTransaction {
    func offeringRows(bundleId: String) async throws -> [OfferingRow] {
        try await sql.select().columns("*").from("bk_offerings").where("bundleId", .equal, bundleId).all(decoding: OfferingRow.self)
    }

    /// Saves the offering (replacing one of the same ID), keeping whether it is current.
    func save(_ offering: Offering, bundleId: String, isCurrent: Bool, nowMs: Int64) async throws {
        let body = String(decoding: try JSONEncoder().encode(offering), as: UTF8.self)
        try await insert([OfferingRow(bundleId: bundleId, id: offering.id, body: body, isCurrent: isCurrent, updatedMs: nowMs)],
                         into: "bk_offerings", replacingOn: ["bundleId", "id"])
    }

    func deleteOffering(bundleId: String, id: String) async throws {
        try await sql.delete(from: "bk_offerings").where("bundleId", .equal, bundleId).where("id", .equal, id).run()
    }

    /// Makes `id` the app's only current offering.
    func makeCurrent(bundleId: String, id: String) async throws {
        try await sql.update("bk_offerings").set("isCurrent", to: SQLLiteral.boolean(false)).where("bundleId", .equal, bundleId).run()
        try await sql.update("bk_offerings").set("isCurrent", to: SQLLiteral.boolean(true))
            .where("bundleId", .equal, bundleId).where("id", .equal, id).run()
    }

    func experiment(id: String) async throws -> Experiment? {
        try await sql.select().columns("*").from("bk_experiments").where("id", .equal, id).first(decoding: Experiment.self)
    }

    func runningExperiments(bundleId: String) async throws -> [Experiment] {
        try await sql.select().columns("*").from("bk_experiments").where("bundleId", .equal, bundleId)
            .where(SQLColumn("stopMs"), .is, SQLLiteral.null).all(decoding: Experiment.self)
    }

    func save(_ experiment: Experiment) async throws {
        try await insert([experiment], into: "bk_experiments", replacingOn: ["id"])
    }

    func enrollment(experimentId: String, appUserId: String) async throws -> EnrollmentRow? {
        try await sql.select().columns("*").from("bk_enrollments").where("experimentId", .equal, experimentId)
            .where("appUserId", .equal, appUserId).first(decoding: EnrollmentRow.self)
    }

    func firstSeen(_ appUserId: String) async throws -> Int64? {
        try await sql.select().column("firstSeenMs").from("bk_customers").where("appUserId", .equal, appUserId)
            .first(decodingColumn: "firstSeenMs", as: Int64.self)
    }
}
