import AsyncHTTPClient
import Foundation
import Logging
import StoreSigning

/// Recovers what the backend missed, through the Server API: Notification History since the
/// last notification applied (and every failed one), Transaction History from the stored
/// revision for each known customer, and All Subscription Statuses for customers whose state
/// is uncertain. Everything goes through the same checks and writer as live data.
public final class Reconciler: Sendable {
    let backend: SubscriptionBackend
    let http: HTTPClient
    private let lock = AsyncLock()

    /// Works through `backend`'s apps, checkers and writer; `http` makes the Server API calls.
    public init(backend: SubscriptionBackend, http: HTTPClient) {
        self.backend = backend
        self.http = http
    }

    /// What one pass did: the answer of `POST /v1/admin/reconcile`, and logged after each scheduled pass.
    public struct Report: Codable, Sendable, Equatable {
        /// Notifications from Notification History that were new, so the backend had missed them.
        public var notificationsApplied = 0
        /// Notifications history returned that were applied before (the usual case when nothing was missed).
        public var notificationsAlreadyKnown = 0
        /// Verified transactions read from Transaction History.
        public var transactionsSeen = 0
        /// Subscriptions asked about through Get All Subscription Statuses: lapsed with auto-renew on
        /// and no word of how they ended, or in billing retry.
        public var subscriptionsChecked = 0
        /// Signed items that failed the checks; each also has a line in `errors`.
        public var refused = 0
        /// One line per failure (an unreadable key, a failed call, a refused payload); the pass goes on past each.
        public var errors: [String] = []
        /// Apps this pass left alone because another instance sharing the database was
        /// reconciling them at that moment (docs/backend.md, "Many instances").
        public var runningElsewhere: [String] = []

        /// Adds what another part of the pass did.
        mutating func merge(_ other: Report) {
            notificationsApplied += other.notificationsApplied
            notificationsAlreadyKnown += other.notificationsAlreadyKnown
            transactionsSeen += other.transactionsSeen
            subscriptionsChecked += other.subscriptionsChecked
            refused += other.refused
            errors += other.errors
            runningElsewhere += other.runningElsewhere
        }
    }

    /// Runs `body` for each item, at most `limit` at once (`reconcileConcurrency`), and adds up
    /// their reports. Each customer's calls stay in order; different customers overlap, so a pass
    /// over 10,000 customers waits for round trips `limit` at a time, not one by one.
    static func bounded<Item: Sendable>(_ items: [Item], limit: Int, _ body: @escaping @Sendable (Item) async -> Report) async -> Report {
        await withTaskGroup(of: Report.self) { group in
            var report = Report()
            var pending = items.makeIterator()
            for _ in 0..<max(1, limit) {
                guard let item = pending.next() else { break }
                group.addTask { await body(item) }
            }
            while let done = await group.next() {
                report.merge(done)
                if let item = pending.next() { group.addTask { await body(item) } }
            }
            return report
        }
    }

    static let day: Int64 = 86_400_000

    /// One pass over every app with an API key; one pass at a time in this instance, and one
    /// instance at a time per app when several share a database.
    public func reconcile() async -> Report {
        (try? await lock.run { await self.pass() }) ?? Report()
    }

    private func pass() async -> Report {
        var report = Report()
        for app in backend.configuration.apps {
            guard let key = app.apiKey, let checker = backend.checkers[app.bundleId] else { continue }
            let signer: APITokenSigner
            do {
                signer = try key.signer(bundleId: app.bundleId)
            } catch {
                report.errors.append("\(app.bundleId): cannot read the API key \(key.privateKeyFile): \(error)")
                continue
            }
            // One instance at a time reconciles an app; the others leave it and say so.
            do {
                let done = try await backend.database.exclusively("reconcile \(app.bundleId)") {
                    await self.pass(app, signer: signer, checker: checker)
                }
                if let done { report.merge(done) } else { report.runningElsewhere.append(app.bundleId) }
            } catch {
                report.errors.append("\(app.bundleId): cannot take the reconcile lock: \(error)")
            }
        }
        if !report.errors.isEmpty {
            backend.logger.warning("reconcile finished with errors", metadata: ["errors": "\(report.errors)"])
        }
        return report
    }

    private func pass(_ app: AppConfiguration, signer: APITokenSigner, checker: SignedDataChecker) async -> Report {
        var report = Report()
        for environment in app.environments where environment == "Production" || environment == "Sandbox" {
            let client = ServerAPIClient(baseURL: app.baseURL(environment: environment), signer: signer, http: http, clock: backend.clock)
            await notifications(app: app, environment: environment, client: client, checker: checker, report: &report)
            await transactions(app: app, environment: environment, client: client, checker: checker, report: &report)
            await statuses(app: app, environment: environment, client: client, checker: checker, report: &report)
        }
        return report
    }

    private func cursor(_ app: AppConfiguration, _ environment: String) async throws -> CursorRow? {
        try await backend.database.cursor(bundleId: app.bundleId, environment: environment)
    }

    // MARK: Notification History

    private func notifications(app: AppConfiguration, environment: String, client: ServerAPIClient,
                               checker: SignedDataChecker, report: inout Report) async {
        do {
            let cursor = try await cursor(app, environment)
            let now = backend.nowMs()
            let clock = max(now, cursor?.storeClockMs ?? 0)
            // Apple keeps 180 days (sandbox 30); a future endDate means now.
            let end = clock + 3650 * Self.day
            let wide = max(0, clock - 179 * Self.day)
            let since = cursor.map { max(wide, $0.lastNotificationMs - 60_000) } ?? wide
            var payloads: [String] = []
            payloads += try await history(client, start: since, end: end, onlyFailures: false)
            payloads += try await history(client, start: wide, end: end, onlyFailures: true)
            var verified: [VerifiedNotification] = []
            for payload in payloads {
                do {
                    verified.append(try checker.notification(payload))
                } catch {
                    report.refused += 1
                    report.errors.append("notification history: refused a payload: \(error.description)")
                }
            }
            // Oldest change first; the writer's ordering makes this a courtesy, not a requirement.
            verified.sort { ($0.signedDate, $0.uuid) < ($1.signedDate, $1.uuid) }
            for notification in verified {
                if try await backend.apply(notification, app: app) {
                    report.notificationsApplied += 1
                } else {
                    report.notificationsAlreadyKnown += 1
                }
            }
        } catch {
            report.errors.append("\(app.bundleId) \(environment) notification history: \(error)")
        }
    }

    /// Every page of one history query. A start Apple finds too far in the past (its clock may be
    /// ahead of what we saw) moves forward 30 days at a time.
    private func history(_ client: ServerAPIClient, start: Int64, end: Int64, onlyFailures: Bool) async throws -> [String] {
        var start = start
        for _ in 0..<12 {
            do {
                var out: [String] = []
                var token: String?
                repeat {
                    let page = try await client.notificationHistory(startMs: start, endMs: end, onlyFailures: onlyFailures, paginationToken: token)
                    out += (page.notificationHistory ?? []).compactMap(\.signedPayload)
                    token = page.hasMore == true ? page.paginationToken : nil
                } while token != nil
                return out
            } catch let failure as ServerAPIFailure where failure.startTooFarInPast {
                start += 30 * Self.day
            }
        }
        return []
    }

    // MARK: Transaction History

    private func transactions(app: AppConfiguration, environment: String, client: ServerAPIClient,
                              checker: SignedDataChecker, report: inout Report) async {
        let database = backend.database
        let links: [LinkRow]
        do {
            links = try await database.links(environment: environment, bundleId: app.bundleId)
        } catch {
            report.errors.append("\(app.bundleId) \(environment): \(error)")
            return
        }
        let revisions: [String: String]
        do {
            revisions = try await database.revisions(environment: environment, bundleId: app.bundleId)
        } catch {
            report.errors.append("\(app.bundleId) \(environment): \(error)")
            return
        }
        let byUser = Dictionary(grouping: links, by: \.appUserId)
        let customers = byUser.sorted(by: { $0.key < $1.key }).compactMap { user, links in
            links.first.map { (user: user, anyId: $0.originalTransactionId, revision: revisions[user]) }
        }
        report.merge(await Self.bounded(customers, limit: backend.configuration.reconcileConcurrency) { customer in
            await self.transactions(of: customer.user, anyId: customer.anyId, from: customer.revision, app: app,
                                    environment: environment, client: client, checker: checker)
        })
    }

    /// One customer's Transaction History from their stored revision, page by page. A page that
    /// brings nothing and leaves the revision where it was writes nothing: after a quiet day that
    /// is most customers, so a pass costs them a round trip and no write.
    private func transactions(of user: String, anyId: String, from stored: String?, app: AppConfiguration, environment: String,
                              client: ServerAPIClient, checker: SignedDataChecker) async -> Report {
        var report = Report()
        let database = backend.database
        do {
            var revision = stored
            var more = true
            while more {
                let page = try await client.transactionHistory(transactionId: anyId, revision: revision)
                if (page.signedTransactions ?? []).isEmpty, page.revision == revision, page.hasMore != true { break }
                var signed: [SignedTransaction] = []
                for jws in page.signedTransactions ?? [] {
                    do {
                        signed.append(try checker.transaction(jws))
                    } catch {
                        report.refused += 1
                        report.errors.append("transaction history: refused a transaction: \(error.description)")
                    }
                }
                report.transactionsSeen += signed.count
                let newRevision = page.revision
                let batch = signed
                let webhooks = backend.configuration.webhooks
                let backend = backend
                let events = try await database.writeLedger { store in
                    var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: backend.nowMs())
                    try await store.load(batch.map { LedgerKeys(customers: [user]).adding($0, app: app) })
                    // The customer as of this write: merged or deleted since the pass listed them, its
                    // purchases are the App Store's data only, linked to no one by this history.
                    let current = try await store.resolve(user)
                    let known = try await store.customerExists(current) && !CustomerIdentity.isDeleted(current)
                    let source: LedgerWriter.Source = known ? .sameAccount(current) : .appStore
                    // Transaction History signs everything now: purchase order is the order of change.
                    for transaction in batch.sorted(by: { (($0.fields.purchaseDate ?? 0), $0.fields.transactionId ?? "") < (($1.fields.purchaseDate ?? 0), $1.fields.transactionId ?? "") }) {
                        // Same Apple account: its other subscriptions belong to this customer too.
                        try await writer.apply(transaction, from: source)
                    }
                    if let newRevision, known {
                        try await store.store.replace(RevisionRow(environment: environment, bundleId: app.bundleId, appUserId: current, revision: newRevision))
                    }
                    return writer.events.count
                }
                if events > 0 { backend.onEvents() }
                revision = newRevision
                more = page.hasMore == true && newRevision != nil
            }
        } catch {
            report.errors.append("\(app.bundleId) \(environment) transaction history of \(user): \(error)")
        }
        return report
    }

    // MARK: All Subscription Statuses

    /// Subscriptions the backend cannot be sure of: past their expiry with auto-renew on and no
    /// word of how they ended, or in billing retry.
    private func statuses(app: AppConfiguration, environment: String, client: ServerAPIClient,
                          checker: SignedDataChecker, report: inout Report) async {
        let database = backend.database
        do {
            let clock = max(backend.nowMs(), try await cursor(app, environment)?.storeClockMs ?? 0)
            var uncertain: [String] = []
            for state in try await database.subscriptionStates(environment: environment, bundleId: app.bundleId) where state.revocationMs == nil {
                let lapsed = (state.expiresMs ?? 0) <= clock && state.autoRenewStatus == 1 && state.expirationIntent == nil
                if lapsed || state.inBillingRetry { uncertain.append(state.originalTransactionId) }
            }
            report.merge(await Self.bounded(uncertain, limit: backend.configuration.reconcileConcurrency) { original in
                await self.statuses(of: original, app: app, environment: environment, client: client, checker: checker)
            })
        } catch {
            report.errors.append("\(app.bundleId) \(environment) subscription statuses: \(error)")
        }
    }

    /// All Subscription Statuses for one uncertain subscription, applied through the writer.
    private func statuses(of original: String, app: AppConfiguration, environment: String,
                          client: ServerAPIClient, checker: SignedDataChecker) async -> Report {
        var report = Report()
        let database = backend.database
        let backend = backend
        do {
            let response = try await client.allSubscriptionStatuses(transactionId: original)
            report.subscriptionsChecked += 1
            var transactions: [SignedTransaction] = []
            var renewals: [SignedRenewalInfo] = []
            for item in (response.data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
                do {
                    if let t = item.signedTransactionInfo { transactions.append(try checker.transaction(t)) }
                    if let r = item.signedRenewalInfo { renewals.append(try checker.renewalInfo(r)) }
                } catch {
                    report.refused += 1
                    report.errors.append("subscription statuses: refused data: \(error.description)")
                }
            }
            let webhooks = backend.configuration.webhooks
            let (found, foundRenewals) = (transactions, renewals)
            let events = try await database.writeLedger { store in
                var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: backend.nowMs())
                try await store.load(found.map { LedgerKeys().adding($0, app: app) } + [LedgerKeys(chains: [ChainKey(environment: environment, original: original)])])
                for t in found { try await writer.apply(t, from: .appStore) }
                for r in foundRenewals { try await writer.apply(r) }
                return writer.events.count
            }
            if events > 0 { backend.onEvents() }
        } catch {
            report.errors.append("\(app.bundleId) \(environment) subscription statuses of \(original): \(error)")
        }
        return report
    }
}
