import Logging
import ServiceLifecycle
import StoreShared

/// Webhook delivery as a ServiceLifecycle service beside the backend's HTTP server: it runs the
/// dispatcher's loop while the group runs. On graceful shutdown (SIGTERM), after the server has
/// finished its requests, the delivery in flight ends with its answer recorded and the rest are
/// handed back to the outbox.
public struct WebhookDeliveryService: Service {
    let dispatcher: WebhookDispatcher

    /// A service for `dispatcher`, which the backend pokes when it records events.
    public init(dispatcher: WebhookDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Delivers until graceful shutdown (finishing the delivery in flight) or cancellation.
    public func run() async throws {
        let dispatcher = dispatcher
        await withGracefulShutdownHandler { await dispatcher.run() } onGracefulShutdown: { dispatcher.stop() }
    }
}

/// Refund control as a ServiceLifecycle service: answers refund requests while the group runs;
/// on graceful shutdown the answer in flight finishes and the rest go back for the next start
/// or another instance.
public struct RefundControlService: Service {
    let responder: RefundResponder

    /// A service for `responder`, which the backend pokes when it records events.
    public init(responder: RefundResponder) {
        self.responder = responder
    }

    /// Answers until graceful shutdown or cancellation; with refund control off everywhere it
    /// only waits for the shutdown (a service that returns would end the group).
    public func run() async throws {
        let responder = responder
        await withGracefulShutdownHandler { await responder.run() } onGracefulShutdown: { responder.stop() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
    }
}

/// Reconciliation through the App Store Server API as a ServiceLifecycle service: a pass once
/// `started` is signalled (the server listens, so a store in the same process that waits for the
/// backend's address already answers), then one every `intervalSeconds` (0: only the first).
public struct ReconcileService: Service {
    let reconciler: Reconciler
    let dispatcher: WebhookDispatcher
    let intervalSeconds: Double
    let started: WakeSignal
    let logger: Logger

    /// A service that reconciles with `reconciler` and pokes `dispatcher` after each pass.
    public init(reconciler: Reconciler, dispatcher: WebhookDispatcher, intervalSeconds: Double, started: WakeSignal, logger: Logger) {
        self.reconciler = reconciler
        self.dispatcher = dispatcher
        self.intervalSeconds = intervalSeconds
        self.started = started
        self.logger = logger
    }

    /// Reconciles until graceful shutdown or cancellation.
    public func run() async throws {
        let (reconciler, dispatcher, interval, started, logger) = (reconciler, dispatcher, intervalSeconds, started, logger)
        await cancelWhenGracefulShutdown {
            await started.wait()
            while !Task.isCancelled {
                let report = await reconciler.reconcile()
                logger.info("reconciled", metadata: [
                    "notifications": "\(report.notificationsApplied)", "transactions": "\(report.transactionsSeen)",
                    "statuses": "\(report.subscriptionsChecked)", "errors": "\(report.errors.count)"])
                dispatcher.poke()
                guard interval > 0 else { break }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            }
            // One pass only: stay in the group until shutdown, since a service that returns
            // would end the whole group (and the server with it).
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
    }
}
