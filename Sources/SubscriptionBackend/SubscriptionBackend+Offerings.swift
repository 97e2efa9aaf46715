import Foundation

/// An offering or experiment request refused: what it names does not exist (`notFound`, 404), the
/// state refuses it (`conflict`, 409), or the body breaks a rule (400, with its JSON path).
public struct OfferingRefusal: Error, Sendable, CustomStringConvertible {
    /// `invalid`: 400, the body breaks the document; `refused`: 422, well formed but refused by meaning.
    public enum Kind: Sendable { case invalid, refused, notFound, conflict }
    public var kind: Kind
    public var code: String
    public var description: String
}

/// Offerings and experiments (#34 §6): remote paywall configuration per app, and A/B tests of
/// it. Each change is one write transaction; the rules are `Offering`'s and `ExperimentRules`'.
extension SubscriptionBackend {
    private func app(_ bundleId: String) throws -> AppConfiguration {
        guard let app = configuration.apps.first(where: { $0.bundleId == bundleId }) else {
            throw OfferingRefusal(kind: .notFound, code: "appNotFound", description: "no app \(bundleId) is configured")
        }
        return app
    }

    /// Creates or replaces an offering; the app's first offering becomes its current one.
    public func saveOffering(_ offering: Offering, bundleId: String) async throws -> Offering {
        _ = try app(bundleId)
        if let problem = offering.problem() {
            throw OfferingRefusal(kind: problem.meaning ? .refused : .invalid, code: "invalidOffering", description: problem.text)
        }
        let now = nowMs()
        try await database.write { store in
            let rows = try await store.offeringRows(bundleId: bundleId)
            let isCurrent = rows.first { $0.id == offering.id }?.isCurrent ?? !rows.contains(where: \.isCurrent)
            try await store.save(offering, bundleId: bundleId, isCurrent: isCurrent, nowMs: now)
        }
        return offering
    }

    /// Removes an offering no running experiment shows.
    public func deleteOffering(id: String, bundleId: String) async throws {
        _ = try app(bundleId)
        try await database.write { store in
            guard try await store.offeringRows(bundleId: bundleId).contains(where: { $0.id == id }) else {
                throw OfferingRefusal(kind: .notFound, code: "offeringNotFound", description: "no offering \(id) in \(bundleId)")
            }
            if let running = try await store.runningExperiments(bundleId: bundleId).first(where: { [$0.control, $0.treatment].contains(id) }) {
                throw OfferingRefusal(kind: .conflict, code: "offeringInUse", description: "experiment \(running.id) shows \(id); stop it first")
            }
            try await store.deleteOffering(bundleId: bundleId, id: id)
        }
    }

    public func setCurrentOffering(id: String, bundleId: String) async throws {
        _ = try app(bundleId)
        try await database.write { store in
            guard try await store.offeringRows(bundleId: bundleId).contains(where: { $0.id == id }) else {
                throw OfferingRefusal(kind: .notFound, code: "offeringNotFound", description: "no offering \(id) in \(bundleId)")
            }
            try await store.makeCurrent(bundleId: bundleId, id: id)
        }
    }

    /// The app's offerings and its current one's ID.
    public func offerings(bundleId: String) async throws -> (current: String?, offerings: [Offering]) {
        _ = try app(bundleId)
        return try await database.offerings(bundleId: bundleId)
    }

    /// Starts an experiment of two of the app's offerings, from now; one runs per app at a time.
    public func startExperiment(id: String, bundleId: String, control: String, treatment: String) async throws -> Experiment {
        _ = try app(bundleId)
        guard Offering.validIdentifier(id) else {
            throw OfferingRefusal(kind: .invalid, code: "invalidExperiment", description: "the experiment's ID: 1–64 letters, digits, _, -, . or $")
        }
        guard control != treatment else {
            throw OfferingRefusal(kind: .refused, code: "invalidExperiment", description: "control and treatment are the same offering")
        }
        let now = nowMs()
        let experiment = Experiment(id: id, bundleId: bundleId, control: control, treatment: treatment, startMs: now, stopMs: nil)
        try await database.write { store in
            if try await store.experiment(id: id) != nil {
                throw OfferingRefusal(kind: .conflict, code: "experimentExists", description: "experiment \(id) exists; experiments are not restarted")
            }
            let ids = Set(try await store.offeringRows(bundleId: bundleId).map(\.id))
            for offering in [control, treatment] where !ids.contains(offering) {
                throw OfferingRefusal(kind: .notFound, code: "offeringNotFound", description: "no offering \(offering) in \(bundleId)")
            }
            if let running = try await store.runningExperiments(bundleId: bundleId).first {
                throw OfferingRefusal(kind: .conflict, code: "experimentRunning", description: "experiment \(running.id) runs for \(bundleId); stop it first")
            }
            try await store.save(experiment)
        }
        return experiment
    }

    /// Stops enrolling; enrolled customers see the app's current offering again. The report stays.
    public func stopExperiment(id: String) async throws -> Experiment {
        let now = nowMs()
        return try await database.write { store in
            guard var experiment = try await store.experiment(id: id) else {
                throw OfferingRefusal(kind: .notFound, code: "experimentNotFound", description: "no experiment \(id)")
            }
            if experiment.stopMs == nil {
                experiment.stopMs = now
                try await store.save(experiment)
            }
            return experiment
        }
    }

    /// Each variant's figures so far; nil for an unknown experiment.
    public func experimentReport(id: String) async throws -> ExperimentReport? {
        guard let experiment = try await database.experiment(id: id) else { return nil }
        return ExperimentRules.report(experiment, enrolled: try await database.enrolled(in: experiment))
    }

    /// What the customer's paywall shows: while an experiment runs, a customer new to it is
    /// enrolled on this first request (its variant fixed from then on) and sees the variant's
    /// offering; everyone else sees the app's current one. The customer is made if new.
    public func customerOfferings(appUserId: String, bundleId: String?) async throws -> CustomerOfferings {
        guard let app = bundleId.map({ id in configuration.apps.first { $0.bundleId == id } }) ?? configuration.apps.first else {
            throw OfferingRefusal(kind: .notFound, code: "appNotFound", description: "no app \(bundleId ?? "") is configured")
        }
        // Experiments run on the backend's own clock, as customers' first sightings do: a store
        // running ahead in a test must not make every customer look older than the experiment.
        let now = nowMs(), wall = now
        // Through ingest's group commit: an app's launch asks for offerings, so these come in crowds.
        let (id, enrollment) = try await ingest.write(keys: LedgerKeys(customers: [appUserId])) { store -> (String, CustomerOfferings.Enrollment?) in
            let id = try await store.resolve(appUserId)
            guard !CustomerIdentity.isDeleted(id) else { return (id, nil) }
            if try await !store.customerExists(id) {
                // The store's clock is read only for a customer seen for the first time (app launches come in crowds).
                store.insert(CustomerRow(appUserId: id, firstSeenMs: wall, firstSeenStoreMs: max(wall, try await store.store.storeClock() ?? 0)))
            }
            guard let experiment = try await store.store.runningExperiments(bundleId: app.bundleId).first else {
                return (id, nil)
            }
            if let row = try await store.store.enrollment(experimentId: experiment.id, appUserId: id) {
                return (id, Self.enrollment(row, experiment))
            }
            let firstSeen = try await store.store.firstSeen(id) ?? now
            guard ExperimentRules.isNew(firstSeenMs: firstSeen, experiment: experiment) else { return (id, nil) }
            let row = EnrollmentRow(experimentId: experiment.id, appUserId: id,
                                    variant: ExperimentRules.variant(experimentId: experiment.id, appUserId: id), enrolledMs: now)
            try await store.store.insert([row], into: "bk_enrollments")
            return (id, Self.enrollment(row, experiment))
        }
        lastSeen.saw(id, atMs: nowMs())
        let (current, offerings) = try await database.offerings(bundleId: app.bundleId)
        let shown = enrollment?.offeringId ?? current
        return CustomerOfferings(current: offerings.first { $0.id == shown }, offerings: offerings, experiment: enrollment)
    }

    private static func enrollment(_ row: EnrollmentRow, _ experiment: Experiment) -> CustomerOfferings.Enrollment {
        CustomerOfferings.Enrollment(id: experiment.id, variant: row.variant,
                                     offeringId: row.variant == ExperimentRules.control ? experiment.control : experiment.treatment,
                                     enrolledAt: row.enrolledMs)
    }
}
