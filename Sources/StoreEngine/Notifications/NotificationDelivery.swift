import StoreModel
import StoreStorage

/// A notification whose next delivery attempt is due: what the delivery service needs to send it
/// and log it. The service asks the engine for these and reports each attempt's outcome back
/// (`recordDeliveryOutcomes`); it never touches the outbox itself.
public struct DueNotification: Sendable, Equatable {
    /// The world whose outbox holds it.
    public var world: String
    /// The app it is for.
    public var bundleId: String
    /// The customer it concerns ("" for a mass-extension summary and for TEST).
    public var customer: String
    /// `Production` or `Sandbox`: which of the app's URLs it goes to.
    public var environment: String
    /// The `notificationUUID` every attempt carries.
    public var notificationUUID: String
    /// Apple's `notificationType`, for the delivery log.
    public var notificationType: String
    /// Apple's `subtype`, if any, for the delivery log.
    public var subtype: String?
    /// The transaction it reports, if any, for the delivery log.
    public var transactionId: Int64?
    /// Where it goes: the app's URL for the notification's environment in its world; nil when the
    /// URL was removed after the notification was emitted.
    public var url: String?
    /// Which attempt this is, counted from 1.
    public var attempt: Int
    /// The attempt's date on the world clock: its due time, as Apple's schedule puts it.
    public var attemptMs: Int64
    let record: NotificationRecord

    /// Where it stands in due order: a pass asks for the page after the last one it took.
    public var position: DuePosition { DuePosition(dueMs: attemptMs, seq: record.seq) }
}

/// A place in the due order of a world's outbox (due time on the world clock, then emission order).
/// A delivery pass reads its next page after the position of the last notification it took,
/// while those are still in flight: their outcomes are not written yet, so reading from the start
/// would hand them out twice.
public struct DuePosition: Sendable, Equatable {
    /// When the notification is due, on the world's clock.
    public var dueMs: Int64
    /// Its change number, which orders notifications due at the same time.
    public var seq: Int64
}

/// How one delivery attempt went, as `sendAttemptResult` (`SUCCESS`, `TIMED_OUT`, …).
public struct NotificationDeliveryOutcome: Sendable, Equatable {
    /// The notification that was sent (or could not be).
    public var notification: DueNotification
    /// Apple's `sendAttemptResult` for the attempt; only `SUCCESS` counts as delivered.
    public var sendAttemptResult: String

    /// The outcome of one attempt, to hand back through `recordDeliveryOutcomes`.
    public init(notification: DueNotification, sendAttemptResult: String) {
        self.notification = notification
        self.sendAttemptResult = sendAttemptResult
    }

    var delivered: Bool { sendAttemptResult == "SUCCESS" }
}

extension AppStore {
    func dueNotifications(world worldId: String, after position: DuePosition? = nil, limit: Int) async throws -> [DueNotification] {
        let world = try await self.loadedWorld(worldId)
        let records = try await database.dueNotifications(
            world: worldId, untilMs: await world.nowMs(), after: position.map { ($0.dueMs, $0.seq) }, limit: limit)
        guard !records.isEmpty else { return [] }
        let urls = try await worlds.env.notificationURLs.urls(database: database, world: worldId)
        return records.map { record in
            DueNotification(
                world: record.world, bundleId: record.bundleId, customer: record.customer, environment: record.environment,
                notificationUUID: record.uuid, notificationType: record.type, subtype: record.subtype,
                transactionId: record.transactionId,
                url: urls[NotificationURLBook.key(bundleId: record.bundleId, environment: record.environment)],
                attempt: record.attemptCount + 1, attemptMs: record.nextAttemptMs ?? record.signedMs, record: record)
        }
    }

    /// Returns when a notification may be due in a world this instance serves: at once when one
    /// is, else when a new one is committed, a clock jumps, the next retry falls due, or after
    /// `limit`, whichever comes first. The delivery service waits here while nothing is due,
    /// so an idle store does not poll its outbox (issue #27). `limit` bounds what this cannot
    /// see: a world taken over from another instance, or a rate change elsewhere.
    public func waitForDueNotifications(atMost limit: Duration) async {
        let realNow = worlds.env.realNowMs()
        var wait = limit
        for world in await worlds.all {
            guard let dueMs = try? await database.nextNotificationDueMs(world: world.id) else { continue }
            let until = await world.realMs(atWorld: dueMs) - realNow
            if until <= 0 { return }
            wait = min(wait, .milliseconds(until))
        }
        await worlds.env.outbox.wait(timeout: wait)
    }

    /// `{"signedPayload":"…"}` for one attempt: signed now, with the content fixed at emission
    /// (the same `notificationUUID` on every attempt).
    public func requestBody(of notification: DueNotification) -> [UInt8] {
        NotificationPayload.requestBody(signedPayload: NotificationPayload.sign(notification.record, signer: signer))
    }

    /// Writes the attempts' outcomes back in one batch: delivered, or the next attempt where
    /// Apple's retry schedule puts it (`NotificationRetryPolicy`), or no attempt left.
    public func recordDeliveryOutcomes(_ outcomes: [NotificationDeliveryOutcome]) async throws {
        guard !outcomes.isEmpty else { return }
        var batch = WriteBatch()
        batch.notifications = outcomes.map { outcome in
            let record = outcome.notification.record, due = outcome.notification
            return .attempt(NotificationAttemptUpdate(
                seq: record.seq, attemptCount: due.attempt, delivered: outcome.delivered,
                nextAttemptMs: outcome.delivered ? nil : NotificationRetryPolicy.nextAttemptMs(
                    afterFailedAttempt: due.attempt, at: due.attemptMs, environment: record.environment),
                attempts: NotificationPayload.appendingAttempt(record.attempts, dateMs: due.attemptMs, result: outcome.sendAttemptResult)))
        }
        // An outcome row names no world: fenced by the worlds of its notifications, so an instance
        // that lost a world cannot overwrite its new owner's delivery record.
        batch.leases = database.leaseBook.fence(Set(outcomes.map(\.notification.record.world)))
        try await database.write(batch)
    }
}
