import Foundation
import StoreModel
import StoreStorage

/// The scheduler: renewals, billing retries, grace-period ends and expirations are events on the
/// world clock. They fire in time order and exactly once, whether time passes by itself or jumps
/// ahead a year; events that fell due while the store was down fire when it comes back.
extension World {
    /// Most events applied per database transaction while catching up.
    static let eventsPerBatch = 2048

    /// Applies every event due by the world's current time.
    func catchUp() async throws {
        try await advance(to: nowMs())
    }

    /// Applies events due up to `limitMs`, oldest first, each at its own due time. One catch-up
    /// runs at a time: a caller returns only once every event it saw due is durable, even when
    /// the background driver popped them first.
    func advance(to limitMs: Int64) async throws {
        // Nothing due, nothing running, nothing to reload: the common case of a purchase costs no task.
        if advancing == nil, !needsReload, (agenda.next?.due ?? .max) > limitMs { return }
        while let running = advancing {
            _ = try? await running.value
            // Its owner may not have resumed yet to clear it; a finished catch-up no longer blocks.
            if advancing == running { advancing = nil }
        }
        let task = Task { try await self.applyDueEvents(upTo: limitMs) }
        advancing = task
        defer { if advancing == task { advancing = nil } }
        try await task.value
    }

    /// Fires batches of due events. While one batch commits (on SQLite's thread), the next is
    /// decided here; at most one is in flight, and batches reach the database in order. Firing
    /// reads memory only; a batch's notifications, which may read transactions, see the batch
    /// in flight (`committing`) before the database.
    ///
    /// A batch that fails leaves memory ahead of the database: memory is discarded (the batches
    /// decided on it are refused, `WriteFence`) and the next catch-up reloads the world first, so
    /// every event the failed batches held fires again, once, after the database is back.
    private func applyDueEvents(upTo limitMs: Int64) async throws {
        try await reloadIfNeeded()
        var inFlight: Task<Void, any Error>?
        let epoch = generation
        // Chains forgotten to bound memory are read back before their events fire (World+Eviction).
        var attempted = Set<Int64>()
        do {
            while let next = agenda.next, next.due <= limitMs {
                try await loadEvictedChainsDue(upTo: limitMs, attempted: &attempted)
                try checkGeneration(epoch)
                var batch = WriteBatch()
                batch.fence = fence
                if let leaseEpoch { batch.leases[id] = leaseEpoch }
                var applied = 0
                while applied < Self.eventsPerBatch, let next = agenda.next, next.due <= limitMs {
                    if needsEvictedChain(next.originalId, attempted: attempted) { break }
                    _ = agenda.pop()
                    guard let chain = chains[next.originalId], chain.nextEventMs == next.due, let event = chain.nextEvent else { continue }
                    try fire(event, on: chain, at: next.due, in: &batch)
                    applied += 1
                }
                if batch.isEmpty { continue }
                // Reserved in the turn that decided it: later writes' changes wait for these (TransactionFeed).
                let feed = env.feed
                let reservation = feed.reserve(world: id, batch.transactions)
                do {
                    defer { decided.forget(batch) }
                    if !batch.events.isEmpty { try await prepareNotifications(&batch) }
                    if let inFlight { try await inFlight.value }
                    // Another write failed meanwhile: this batch left memory with the rest.
                    try checkGeneration(epoch)
                } catch {
                    feed.abandon(reservation)
                    throw error
                }
                let database = env.database
                let outbox = env.outbox
                let ready = batch
                let worldId = id
                committing = ready
                // Announced once durable.
                inFlight = Task.detached {
                    do {
                        try await database.write(ready)
                    } catch {
                        feed.abandon(reservation)
                        throw error
                    }
                    feed.publish(reservation, ready.transactions)
                    feed.announce(world: worldId, subscriptions: ready.subscriptions, besides: ready.transactions)
                    if !ready.notifications.isEmpty { outbox.signal() }
                }
            }
            if let inFlight { try await inFlight.value }
            committing = nil
        } catch {
            // Let the write in flight settle before the next catch-up may start.
            _ = try? await inFlight?.value
            committing = nil
            if error is LeaseLost { env.ownership?.markLost(id, epoch: leaseEpoch) }
            // Memory holds batches that were not written: read the world back before going on.
            if generation == epoch { discardMemory() }
            throw error
        }
    }

    func fire(_ event: SubscriptionChain.NextEvent, on chain: SubscriptionChain, at dueMs: Int64, in batch: inout WriteBatch) throws {
        guard let app = env.apps[chain.bundleId] else {
            var parked = chain
            parked.schedule(nil, at: nil)
            store(parked, in: &batch)
            return
        }
        switch event {
        case .renewal: try attemptRenewal(chain, app: app, at: dueMs, in: &batch)
        case .retryAttempt: try retryBilling(chain, app: app, at: dueMs, in: &batch)
        case .gracePeriodEnd: endGracePeriod(chain, at: dueMs, in: &batch)
        case .billingRetryEnd: expire(chain, intent: .billingError, subtype: .billingRetry, at: dueMs, in: &batch)
        }
    }

    /// The end of a period: renew, or expire for Apple's reasons, or fail into billing retry.
    func attemptRenewal(_ chain: SubscriptionChain, app: StoreApp, at dueMs: Int64, in batch: inout WriteBatch) throws {
        if let commitment = chain.commitment, BillingPlanCommitment.endsWithoutRenewal(commitment) {
            expire(chain, intent: .customerCancelled, subtype: .voluntary, at: dueMs, in: &batch)
            return
        }
        if !chain.autoRenewEnabled {
            let intent = chain.expirationIntent ?? .customerCancelled
            expire(chain, intent: intent, subtype: intent == .didNotConsentToPriceIncrease ? .priceIncrease : .voluntary, at: dueMs, in: &batch)
            return
        }
        if let increase = chain.priceIncrease, increase.needsConsent, !increase.accepted {
            expire(chain, intent: .didNotConsentToPriceIncrease, subtype: .priceIncrease, at: dueMs, in: &batch)
            return
        }
        guard app.catalog.product(chain.autoRenewProductId)?.subscription != nil else {
            expire(chain, intent: .productNotAvailable, subtype: .productNotForSale, at: dueMs, in: &batch)
            return
        }
        if let limit = settings.renewalLimit, renewals(of: chain) >= limit {
            var stopped = chain
            stopped.autoRenewEnabled = false
            expire(stopped, intent: .other, subtype: nil, at: dueMs, in: &batch)
            return
        }
        if failRenewals(app) {
            enterBillingRetry(chain, app: app, at: dueMs, in: &batch)
            return
        }
        try renew(chain, app: app, periodStartMs: dueMs, chargedMs: dueMs, recovery: false, in: &batch)
    }

    /// A successful renewal: a new transaction for the next period, in the renewal product
    /// (a pending downgrade takes effect here), at the price the subscriber agreed to.
    func renew(_ chain: SubscriptionChain, app: StoreApp, periodStartMs: Int64, chargedMs: Int64, recovery: Bool, in batch: inout WriteBatch) throws {
        var chain = chain
        guard let product = app.catalog.product(chain.autoRenewProductId), let subscription = product.subscription else { return }
        if product.id != chain.productId {
            chain.renewalPriceMilliunits = Storefront.lookup(chain.storefront)?.milliunits(product.price) ?? chain.renewalPriceMilliunits
            chain.offer = nil
        }
        if let increase = chain.priceIncrease, increase.accepted || !increase.needsConsent {
            chain.renewalPriceMilliunits = increase.newPriceMilliunits
            chain.priceIncrease = nil
        }
        var offer: SubscriptionChain.ActiveOffer?
        var expires: Int64
        if let current = chain.commitment {
            // The next monthly period of the commitment, or period 1 of a renewed one. A billing
            // recovery shifts the commitment's end by the time spent in billing retry (Apple).
            let shift = recovery && current.periodNumber < current.totalPeriods ? max(periodStartMs - chain.expiresMs, 0) : 0
            guard var next = BillingPlanCommitment.next(after: current, periodStartMs: periodStartMs, rate: rate) else { return }
            next.expiresMs += shift
            chain.commitment = next
            chain.offer = nil
            chain.renewalPriceMilliunits = next.monthlyPriceMilliunits
            expires = BillingPlanCommitment.periodEnd(next, startMs: periodStartMs, rate: rate)
        } else if var running = chain.offer, running.remainingPeriods > 0, let period = SubscriptionPeriod(iso8601: running.periodISO) {
            running.remainingPeriods -= 1
            offer = running
            chain.offer = running
            expires = RenewalSchedule.end(of: period, startingAt: periodStartMs, rate: rate)
        } else {
            chain.offer = nil
            expires = RenewalSchedule.end(of: subscription.period, startingAt: periodStartMs, rate: rate)
        }
        if expires <= chargedMs { expires = RenewalSchedule.end(of: subscription.period, startingAt: chargedMs, rate: rate) }
        let transactionId = env.identifiers.nextId()
        chain.productId = product.id
        chain.latestTransactionId = transactionId
        chain.periodStartMs = periodStartMs
        chain.expiresMs = expires
        chain.state = .active
        chain.expirationIntent = nil
        chain.gracePeriodExpiresMs = nil
        chain.billingRetryEndsMs = nil
        chain.schedule(.renewal, at: expires)
        let payload = TransactionFactory.subscriptionPeriod(
            chain: chain, app: app, product: product, transactionId: transactionId, purchaseMs: chargedMs,
            expiresMs: expires, priceMilliunits: offer?.priceMilliunits ?? chain.renewalPriceMilliunits,
            reason: .renewal, offer: offer)
        let record = try store(payload, kind: .autoRenewable, customer: chain.customer, in: &batch)
        store(chain, in: &batch)
        emit(.didRenew, recovery ? .billingRecovery : nil, chain: chain, key: key(of: chain), transactionId: record.id, atMs: chargedMs, in: &batch)
        try shareWithFamily(record, product: product, app: app, in: &batch)
    }

    /// A failed renewal: billing retry for up to 60 days (by rate), with a grace period first
    /// when enabled; the customer keeps access during grace only.
    func enterBillingRetry(_ chain: SubscriptionChain, app: StoreApp, at dueMs: Int64, in batch: inout WriteBatch) {
        var chain = chain
        let period = app.catalog.product(chain.autoRenewProductId)?.subscription?.period
            ?? app.catalog.product(chain.productId)?.subscription?.period ?? SubscriptionPeriod(unit: .month, value: 1)
        chain.expirationIntent = .billingError
        chain.billingRetryEndsMs = dueMs + RenewalSchedule.billingRetryMs(for: period, rate: rate)
        if gracePeriodEnabled(app), chain.commitment == nil {  // no grace period for commitment plans (Apple)
            chain.state = .gracePeriod
            chain.gracePeriodExpiresMs = dueMs + RenewalSchedule.gracePeriodMs(for: period, rate: rate)
        } else {
            chain.state = .billingRetry
            chain.gracePeriodExpiresMs = nil
        }
        scheduleBillingEvent(&chain, after: dueMs, period: period)
        store(chain, in: &batch)
        queueBillingIssueMessage(for: chain, at: dueMs, in: &batch)
        emit(.didFailToRenew, chain.state == .gracePeriod ? .gracePeriod : nil, chain: chain, key: key(of: chain),
             transactionId: chain.latestTransactionId, atMs: dueMs, in: &batch)
    }

    /// Schedules the next billing-retry event (`BillingRetry.nextEvent`, the rule).
    func scheduleBillingEvent(_ chain: inout SubscriptionChain, after nowMs: Int64, period: SubscriptionPeriod) {
        let next = BillingRetry.nextEvent(of: chain, after: nowMs, period: period, rate: rate)
        chain.schedule(next.event, at: next.atMs)
    }

    /// A retry attempt succeeds once billing works again (the switch is off).
    func retryBilling(_ chain: SubscriptionChain, app: StoreApp, at dueMs: Int64, in batch: inout WriteBatch) throws {
        if failRenewals(app) || !chain.autoRenewEnabled {
            var waiting = chain
            let period = app.catalog.product(chain.autoRenewProductId)?.subscription?.period ?? SubscriptionPeriod(unit: .month, value: 1)
            scheduleBillingEvent(&waiting, after: dueMs, period: period)
            store(waiting, in: &batch)
            return
        }
        try recover(chain, app: app, at: dueMs, in: &batch)
    }

    /// Billing recovered: the next period starts where `BillingRetry.recoveredPeriodStartMs` says.
    func recover(_ chain: SubscriptionChain, app: StoreApp, at nowMs: Int64, in batch: inout WriteBatch) throws {
        let start = BillingRetry.recoveredPeriodStartMs(of: chain, recoveredAt: nowMs)
        try renew(chain, app: app, periodStartMs: start, chargedMs: nowMs, recovery: true, in: &batch)
    }

    func endGracePeriod(_ chain: SubscriptionChain, at dueMs: Int64, in batch: inout WriteBatch) {
        var chain = chain
        chain.state = .billingRetry
        if let app = env.apps[chain.bundleId] {
            let period = app.catalog.product(chain.autoRenewProductId)?.subscription?.period ?? SubscriptionPeriod(unit: .month, value: 1)
            scheduleBillingEvent(&chain, after: dueMs, period: period)
        } else {
            chain.schedule(.billingRetryEnd, at: chain.billingRetryEndsMs ?? dueMs)
        }
        store(chain, in: &batch)
        emit(.gracePeriodExpired, chain: chain, key: key(of: chain), transactionId: chain.latestTransactionId, atMs: dueMs, in: &batch)
    }

    func expire(_ chain: SubscriptionChain, intent: ExpirationIntent, subtype: NotificationSubtype?, at dueMs: Int64, in batch: inout WriteBatch) {
        var chain = chain
        chain.state = .expired
        chain.expirationIntent = intent
        chain.autoRenewEnabled = false
        chain.gracePeriodExpiresMs = nil
        chain.billingRetryEndsMs = nil
        chain.priceIncrease = nil
        chain.schedule(nil, at: nil)
        store(chain, in: &batch)
        queueWinBackMessage(for: chain, at: dueMs, in: &batch)
        emit(.expired, subtype, chain: chain, key: key(of: chain), transactionId: chain.latestTransactionId, atMs: dueMs, in: &batch)
    }

    func key(of chain: SubscriptionChain) -> CustomerKey {
        CustomerKey(bundleId: chain.bundleId, customer: chain.customer)
    }

    /// How many renewals the chain has had, for the optional sandbox-style cap.
    func renewals(of chain: SubscriptionChain) -> Int {
        let list = histories[key(of: chain)] ?? Array((pendingHistory[key(of: chain)] ?? [:]).values)
        return max(0, list.filter { $0.originalId == chain.originalTransactionId }.count - 1)
    }

    /// Runs the scheduler in the background so that events fire as time passes by itself.
    /// While the database is away it backs off (`SchedulerBackoff`) instead of retrying at once.
    func startDriver() {
        guard driver == nil else { return }
        driver = Task { [weak self] in
            var backoff = SchedulerBackoff()
            while !Task.isCancelled {
                guard let self else { return }
                let wait = await self.millisecondsUntilNextEvent()
                if wait <= 0 {
                    do {
                        try await self.catchUp()
                        backoff.succeeded()
                    } catch {
                        try? await Task.sleep(for: .milliseconds(backoff.failed()))
                    }
                    continue
                }
                // Until the next event; sooner when one is scheduled before it, the clock changes or
                // memory is read back (`schedulerWake`). The cap bounds what no signal reports.
                await self.schedulerWake.wait(timeout: .milliseconds(min(wait, Self.longestSleepMs)))
            }
        }
    }

    /// The longest the driver sleeps without a signal (an idle world wakes once a second).
    static let longestSleepMs: Int64 = 1000

    func stopDriver() {
        driver?.cancel()
        driver = nil
    }

    func millisecondsUntilNextEvent() -> Int64 {
        if needsReload { return 0 }
        guard let next = agenda.next else { return Self.longestSleepMs }
        return settings.clock.realMs(atWorld: next.due) - env.realNowMs()
    }
}

/// How long the scheduler waits after a failed catch-up: 100 ms, doubling to 5 s, back to none
/// after a success. A catch-up fails while the database is away; retrying at once would spin.
struct SchedulerBackoff: Sendable {
    private(set) var failures = 0

    mutating func failed() -> Int64 {
        failures += 1
        return min(100 << min(failures - 1, 6), 5_000)
    }

    mutating func succeeded() { failures = 0 }
}
