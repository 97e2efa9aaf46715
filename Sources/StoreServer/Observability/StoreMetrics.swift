import CoreMetrics
import Foundation
import Prometheus
import StoreEngine
import Synchronization

/// The store's Prometheus metrics (`GET /metrics`, docs/metrics.md). HTTP requests are recorded
/// as they happen through swift-metrics; the business figures (purchases, renewals, refunds,
/// notification results, outbox, scheduler lag, worlds, customers) are read from the engine at
/// scrape time, so they are exact and count everything since the store's data was created.
/// Each server has its own registry: two stores in one process never mix their figures.
public final class StoreMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    /// The last totals seen per series, so scraped totals feed Prometheus counters by their growth.
    private let seen = Mutex<[String: Int64]>([:])

    /// Request latency buckets in seconds: 1 ms to 10 s.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// A fresh registry: each server counts its own requests.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.factory = factory
    }

    /// One answered request: its route template (never the raw path, which would make a series
    /// per customer), method, status and time taken.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        CoreMetrics.Counter(label: "openstore_http_requests_total",
                            dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory).increment()
        CoreMetrics.Timer(label: "openstore_http_request_duration_seconds",
                          dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The Prometheus text exposition, with the store's figures read now.
    public func render(store: AppStore) async throws -> String {
        update(with: try await store.figures())
        return registry.emitToString()
    }

    func update(with figures: StoreFigures) {
        for (type, count) in figures.purchasesByProductType {
            total("openstore_purchases_total", [("product_type", type)], count, help: "Purchases (not renewals) by product type")
        }
        total("openstore_renewals_total", [], figures.renewals, help: "Subscription renewals (DID_RENEW)")
        total("openstore_billing_failures_total", [], figures.billingFailures, help: "Renewals that could not be billed (DID_FAIL_TO_RENEW)")
        total("openstore_refunds_total", [], figures.refunds, help: "Refunds (REFUND)")
        for (type, count) in figures.eventsByType {
            total("openstore_events_total", [("type", type)], count, help: "App Store events emitted, by notification type")
        }
        for (result, count) in figures.sendAttemptsByResult {
            total("openstore_notification_attempts_total", [("result", result)], count,
                  help: "Server notification send attempts by sendAttemptResult")
        }
        gauge("openstore_notification_outbox_depth", Double(figures.outboxDepth), help: "Server notifications waiting for their next attempt")
        gauge("openstore_notification_oldest_pending_age_seconds", Double(figures.oldestPendingAgeMs) / 1000,
              help: "World time since the oldest waiting notification was signed")
        gauge("openstore_scheduler_lag_seconds", Double(figures.schedulerLagMs) / 1000,
              help: "World time the renewal scheduler is behind its earliest due event")
        gauge("openstore_worlds", Double(figures.worlds), help: "Worlds in the store")
        gauge("openstore_customers", Double(figures.customers), help: "Customers in all worlds")
        if let leases = figures.leasesHeld {
            gauge("openstore_leases_held", Double(leases), help: "World leases this instance holds (many instances on PostgreSQL)")
        }
    }

    /// Feeds a counter with the growth of a durable total (a total that shrank, when a world was
    /// deleted, only moves the baseline: a counter never goes down).
    private func total(_ name: String, _ labels: [(String, String)], _ value: Int64, help: String) {
        let counter = registry.makeCounter(name: name, labels: labels, help: help)
        let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
        let growth = seen.withLock { seen -> Int64 in
            defer { seen[key] = value }
            return max(0, value - (seen[key] ?? 0))
        }
        if growth > 0 { counter.increment(by: growth) }
    }

    private func gauge(_ name: String, _ value: Double, help: String) {
        registry.makeGauge(name: name, labels: [], help: help).set(value)
    }
}
