import Foundation
import NIOCore
import NIOPosix
import StoreEngine
import StoreServer
import StoreStorage

/// Purchases per second with the store on SQLite and on PostgreSQL in the same run (issue 11):
/// the same server, demo apps, load generator and connections; only the database differs. Rounds
/// alternate between the two so drift in machine load touches both alike; each keeps its best.
struct DatabaseBenchmark {
    var postgresURL: String
    var connections: Int
    var warmUp: Double
    var duration: Double
    var rounds: Int
    var customers: Int

    struct Figures {
        var sqlite: HTTPLoadGenerator.Result
        var postgres: HTTPLoadGenerator.Result
    }

    func run(log: (String) -> Void) async throws -> Figures {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("openstore-bench-db-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try await Self.start(try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path))
        let postgres: (server: RunningServer, store: AppStore, database: StoreDatabase)
        do {
            postgres = try await Self.start(try await StoreDatabase.open(url: postgresURL))
        } catch {
            await sqlite.server.stop()
            await sqlite.database.close()
            throw error
        }
        var best: (sqlite: HTTPLoadGenerator.Result?, postgres: HTTPLoadGenerator.Result?) = (nil, nil)
        do {
            // Each store's own customers (names carry the run), so a database reused across runs stays valid.
            let sqliteRequests = try HTTPBenchmark.purchases(store: sqlite.store, customers: customers)
            let postgresRequests = try HTTPBenchmark.purchases(store: postgres.store, customers: customers)
            for round in 1...rounds {
                let onSQLite = try await load(port: sqlite.server.port, requests: sqliteRequests)
                log("round \(round): POST purchases on SQLite      " + HTTPBenchmark.describe(onSQLite, unit: "purchases/s"))
                if best.sqlite.map({ $0.perSecond < onSQLite.perSecond }) ?? true { best.sqlite = onSQLite }
                let onPostgres = try await load(port: postgres.server.port, requests: postgresRequests)
                log("round \(round): POST purchases on PostgreSQL  " + HTTPBenchmark.describe(onPostgres, unit: "purchases/s"))
                if best.postgres.map({ $0.perSecond < onPostgres.perSecond }) ?? true { best.postgres = onPostgres }
            }
        } catch {
            BenchLogHandler.mute()
            for running in [sqlite, postgres] {
                await running.server.stop()
                await running.database.close()
            }
            throw error
        }
        BenchLogHandler.mute()
        for running in [sqlite, postgres] {
            await running.server.stop()
            await running.database.close()
        }
        return Figures(sqlite: best.sqlite!, postgres: best.postgres!)
    }

    static func start(_ database: StoreDatabase) async throws -> (server: RunningServer, store: AppStore, database: StoreDatabase) {
        let store = try await AppStore.open(database: database, apps: try BenchServers.demoApps())
        let http = StoreHTTPServer(store: store, host: "127.0.0.1", port: 0)
        let server = try await RunningServer.start { ready in try await http.run(onReady: ready) }
        return (server, store, database)
    }

    private func load(port: Int, requests: [ByteBuffer]) async throws -> HTTPLoadGenerator.Result {
        let generator = HTTPLoadGenerator(
            port: port, connections: connections, requests: requests, warmUp: warmUp, duration: duration,
            group: MultiThreadedEventLoopGroup.singleton)
        let result = try await generator.run()
        if result.errors > 0 {
            throw BenchError("\(result.errors) failed request(s); first: \(result.firstError ?? "?")")
        }
        return result
    }
}
