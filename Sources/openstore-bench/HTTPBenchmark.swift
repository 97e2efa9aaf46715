import NIOCore
import NIOPosix
import StoreEngine
import StoreModel

/// Purchases per second over HTTP next to a bare route's requests per second, with the same load
/// generator, connection count and event loops, in the same process as the server.
struct HTTPBenchmark {
    var connections: Int
    var warmUp: Double
    var duration: Double
    var rounds: Int
    var customers: Int
    /// Which measurements to make (`bare`, `healthz`, `purchase`); all when empty.
    var only: Set<String>

    struct Figures {
        var bare: HTTPLoadGenerator.Result?
        var healthz: HTTPLoadGenerator.Result?
        var purchase: HTTPLoadGenerator.Result?
    }

    /// Client and servers share NIO's singleton group (one thread per core): no extra threads
    /// competing for the cores, and what the client costs shows up in every figure alike.
    var group: any EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    func run(log: (String) -> Void) async throws -> Figures {
        let bareServer = try await BenchServers.bare()
        let (storeServer, store, cleanUp) = try await BenchServers.store()
        var figures = Figures()
        do {
            let bareRequests = [Self.get("/ping")]
            let healthRequests = [Self.get("/healthz")]
            let purchaseRequests = try Self.purchases(store: store, customers: customers)

            // Rounds alternate between the three so drift in machine load touches each alike; each keeps its best.
            for round in 1...rounds {
                if wants("bare") {
                    let result = try await load(port: bareServer.port, requests: bareRequests)
                    log("round \(round): bare route      " + Self.describe(result, unit: "req/s"))
                    figures.bare = best(figures.bare, result)
                }
                if wants("healthz") {
                    let result = try await load(port: storeServer.port, requests: healthRequests)
                    log("round \(round): GET /healthz    " + Self.describe(result, unit: "req/s"))
                    figures.healthz = best(figures.healthz, result)
                }
                if wants("purchase") {
                    let result = try await load(port: storeServer.port, requests: purchaseRequests)
                    log("round \(round): POST purchases  " + Self.describe(result, unit: "purchases/s"))
                    figures.purchase = best(figures.purchase, result)
                }
            }
        } catch {
            BenchLogHandler.mute()
            await storeServer.stop()
            await bareServer.stop()
            await cleanUp()
            throw error
        }
        BenchLogHandler.mute()
        await storeServer.stop()
        await bareServer.stop()
        await cleanUp()
        return figures
    }

    static func describe(_ result: HTTPLoadGenerator.Result, unit: String) -> String {
        let window = result.duration
        return "\(Report.rate(result.perSecond)) \(unit), p50 \(Report.ms(result.latencyMs(0.5))), p99 \(Report.ms(result.latencyMs(0.99))), "
            + "\(Report.rate(result.cpuMicrosecondsPerRequest)) µs CPU/request, this process used "
            + String(format: "%.2f cores, others %.2f", result.cpu.process / window, result.cpu.others / window)
    }

    private func wants(_ name: String) -> Bool { only.isEmpty || only.contains(name) }

    private func best(_ old: HTTPLoadGenerator.Result?, _ new: HTTPLoadGenerator.Result) -> HTTPLoadGenerator.Result {
        guard let old else { return new }
        return new.perSecond > old.perSecond ? new : old
    }

    private func load(port: Int, requests: [ByteBuffer]) async throws -> HTTPLoadGenerator.Result {
        let generator = HTTPLoadGenerator(
            port: port, connections: connections, requests: requests, warmUp: warmUp, duration: duration, group: group)
        let result = try await generator.run()
        if result.errors > 0 {
            throw BenchError("\(result.errors) failed request(s); first: \(result.firstError ?? "?")")
        }
        return result
    }

    static func get(_ path: String) -> ByteBuffer {
        ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    /// Purchases of the demo apps' consumables (each signs once and writes once, and can be bought
    /// again and again) spread over `customers` customers, so the per-customer caches see many keys.
    static func purchases(store: AppStore, customers: Int) throws -> [ByteBuffer] {
        var products: [(bundleId: String, productId: String)] = []
        for app in store.apps {
            for product in app.catalog.products where product.kind == .consumable {
                products.append((app.bundleId, product.id))
            }
        }
        guard !products.isEmpty else { throw BenchError("the demo catalogs have no consumables") }
        // Every (customer, product) pair once, customers varying fastest.
        return (0..<customers * products.count).map { index in
            let (bundleId, productId) = products[(index / customers) % products.count]
            let customer = "bench-customer-\(index % customers)"
            let body = "{\"productId\":\"\(productId)\",\"customer\":\"\(customer)\",\"quantity\":1}"
            return ByteBuffer(string: """
                POST /storekit/v1/apps/\(bundleId)/purchases HTTP/1.1\r
                Host: 127.0.0.1\r
                Content-Type: application/json\r
                Content-Length: \(body.utf8.count)\r
                \r
                \(body)
                """)
        }
    }
}
