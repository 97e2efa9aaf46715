import AsyncHTTPClient
import Foundation
import NIOCore
import OpenStoreKit
import StoreEngine

/// Issue #28's client figures, each beside its limit measured in the same run:
/// - `Product.products(for:)`, first call and cached call (a fresh connection each round, already
///   connected), beside a bare loopback round trip (`GET /healthz` on the same client);
/// - `Status.updates` latency from a renewal (`time advance`, answered once the renewal is
///   committed) to the app's loop, beside `Transaction.updates` for the same renewal.
extension ClientBenchmark {
    struct APIFigures {
        var bareRoundTrips: [Double] = []
        var firstProducts: [Double] = []
        var cachedProducts: [Double] = []
        var statusLatencies: [Double] = []
        var transactionLatencies: [Double] = []
    }

    static func storeKitAPIs(store: StoreEngine.AppStore, base: String, bundle: String, rounds: Int, renewals: Int,
                             log: (String) -> Void) async throws -> APIFigures {
        let http = HTTPClient.shared
        let ids = ["com.example.backyardbirds.sunflowerseeds", "com.example.backyardbirds.pass.individual"]
        var figures = APIFigures()
        let ms = { (start: UInt64) in Double(NIODeadline.now().uptimeNanoseconds - start) / 1e6 }
        for round in 0..<rounds {
            var started = NIODeadline.now().uptimeNanoseconds
            let health = try await http.execute(HTTPClientRequest(url: base + "/healthz"), timeout: .seconds(30))
            _ = try await health.body.collect(upTo: 1 << 16)
            figures.bareRoundTrips.append(ms(started))
            let fresh = StoreConnection(.init(store: URL(string: base)!, bundleID: bundle, customer: "products-\(round)", createsCustomer: true))
            try await fresh.connect()
            try await OpenStoreKit.withConnection(fresh) {
                started = NIODeadline.now().uptimeNanoseconds
                guard try await Product.products(for: ids).count == 2 else { throw BenchError("products(for:) lost a product") }
                figures.firstProducts.append(ms(started))
                started = NIODeadline.now().uptimeNanoseconds
                guard try await Product.products(for: ids).count == 2 else { throw BenchError("products(for:) lost a product") }
                figures.cachedProducts.append(ms(started))
            }
        }
        log(String(format: "products(for:) p50: first %.3f ms, cached %.3f ms; bare round trip %.3f ms",
                   percentile(figures.firstProducts, 0.5), percentile(figures.cachedProducts, 0.5), percentile(figures.bareRoundTrips, 0.5)))

        // A subscriber with both listeners, renewed `renewals` times.
        let subscriber = StoreConnection(.init(store: URL(string: base)!, bundleID: bundle, customer: "status-bench", createsCustomer: true))
        let pass = ids[1]
        try await OpenStoreKit.withConnection(subscriber) {
            guard let product = try await Product.products(for: [pass]).first,
                  case .success(.verified(let bought)) = try await product.purchase() else { throw BenchError("could not subscribe") }
            await bought.finish()
        }
        let feedsBefore = store.openUpdateFeeds
        let statusArrivals = ArrivalBook(), transactionArrivals = ArrivalBook()
        let statusListener = Task {
            await OpenStoreKit.withConnection(subscriber) {
                for await status in Product.SubscriptionInfo.Status.updates {
                    statusArrivals.arrived(String(status.transaction.unsafePayloadValue.id), at: NIODeadline.now().uptimeNanoseconds)
                }
            }
        }
        let transactionListener = Task {
            await OpenStoreKit.withConnection(subscriber) {
                for await update in Transaction.updates {
                    transactionArrivals.arrived(String(update.unsafePayloadValue.id), at: NIODeadline.now().uptimeNanoseconds)
                }
            }
        }
        defer {
            statusListener.cancel()
            transactionListener.cancel()
        }
        while store.openUpdateFeeds < feedsBefore + 2 { try await Task.sleep(for: .milliseconds(10)) }
        for _ in 0..<renewals {
            var request = HTTPClientRequest(url: base + "/admin/v1/worlds/default/time/advance")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: "{\"duration\":\"P32D\"}"))
            let answer = try await http.execute(request, timeout: .seconds(30))
            _ = try await answer.body.collect(upTo: 1 << 20)
            let committed = NIODeadline.now().uptimeNanoseconds
            guard answer.status == .ok else { throw BenchError("time advance answered \(answer.status.code)") }
            let renewal = try await OpenStoreKit.withConnection(subscriber) { try await Transaction.latest(for: pass)?.payloadValue }
            guard let renewal, renewal.reason == .renewal else { throw BenchError("no renewal after time advance") }
            let id = String(renewal.id)
            let viaTransactions = await transactionArrivals.wait(for: id)
            let viaStatus = await statusArrivals.wait(for: id)
            figures.transactionLatencies.append(viaTransactions > committed ? Double(viaTransactions - committed) / 1e6 : 0)
            figures.statusLatencies.append(viaStatus > committed ? Double(viaStatus - committed) / 1e6 : 0)
        }
        log(String(format: "renewal to the app's loop p50: Status.updates %.3f ms, Transaction.updates %.3f ms",
                   percentile(figures.statusLatencies, 0.5), percentile(figures.transactionLatencies, 0.5)))
        return figures
    }
}
