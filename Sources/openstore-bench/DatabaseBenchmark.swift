import Foundation
import NIOCore
import NIOPosix
import StoreEngine
import StoreServer
import StoreStorage

/// Purchases per second with the store on SQLite and on PostgreSQL in the same run (issue 11):
/// the same server, demo apps, load generator and connections; only the database differs. Rounds
/// alternate between the two so drift in machine load touches both alike; each keeps its best.
/// Each store starts on an empty database of its own (`ScratchDatabase`); the PostgreSQL one is
/// opened as `openstore serve` opens it, one of many instances, so its writes pay the lease check.
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
        /// CPU seconds of the PostgreSQL server's processes in the best PostgreSQL window (nil when
        /// the server is not on this machine).
        var postgresServerCPU: Double?
        /// Transactions PostgreSQL committed (all connections) per purchase, over every PostgreSQL round.
        var commitsPerPurchase: Double?
    }

    typealias Running = (server: RunningServer, store: AppStore, database: StoreDatabase, scratch: ScratchDatabase)

    func run(log: (String) -> Void) async throws -> Figures {
        let sqlite = try await Self.start(.sqlite)
        let postgres: Running
        do {
            postgres = try await Self.start(.postgres(url: postgresURL))
        } catch {
            await Self.stop(sqlite)
            throw error
        }
        if let note = await postgres.store.leaseNote(database: postgres.database, world: AppStore.defaultWorld) { log("PostgreSQL store: " + note) }
        let processes = await postgres.scratch.serverProcesses()
        if processes == nil { log("PostgreSQL server is not on this machine (or /proc is not readable): its CPU is not measured") }
        var best: (sqlite: HTTPLoadGenerator.Result?, postgres: HTTPLoadGenerator.Result?, serverCPU: Double?) = (nil, nil, nil)
        var commits: Int64 = 0, purchases = 0
        do {
            // Each store's own customers (names carry the run).
            let sqliteRequests = try HTTPBenchmark.purchases(store: sqlite.store, customers: customers)
            let postgresRequests = try HTTPBenchmark.purchases(store: postgres.store, customers: customers)
            for round in 1...rounds {
                let onSQLite = try await load(port: sqlite.server.port, requests: sqliteRequests)
                log("round \(round): POST purchases on SQLite      " + HTTPBenchmark.describe(onSQLite, unit: "purchases/s"))
                if best.sqlite.map({ $0.perSecond < onSQLite.perSecond }) ?? true { best.sqlite = onSQLite }

                let statsBefore = await postgres.scratch.commitsAndTransactions()
                let serverBefore = processes?.cpuSeconds()
                let onPostgres = try await load(port: postgres.server.port, requests: postgresRequests)
                let serverCPU = processes.flatMap { p in serverBefore.map { p.cpuSeconds() - $0 } }
                var line = "round \(round): POST purchases on PostgreSQL  " + HTTPBenchmark.describe(onPostgres, unit: "purchases/s")
                if let serverCPU {
                    // The load generator's window is `duration`; the server's CPU was read around warm-up + window.
                    line += String(format: "; PostgreSQL server %.2f cores over warm-up + window", serverCPU / (warmUp + duration))
                }
                log(line)
                // Statistics reach pg_stat_database within about a second of a backend's last commit.
                try await Task.sleep(for: .milliseconds(1500))
                if let before = statsBefore, let after = await postgres.scratch.commitsAndTransactions() {
                    commits += after.commits - before.commits
                    purchases += Int(after.transactions - before.transactions)
                }
                if best.postgres.map({ $0.perSecond < onPostgres.perSecond }) ?? true {
                    best.postgres = onPostgres
                    best.serverCPU = serverCPU.map { $0 * onPostgres.duration / (warmUp + onPostgres.duration) }
                }
            }
        } catch {
            BenchLogHandler.mute()
            await Self.stop(sqlite)
            await Self.stop(postgres)
            throw error
        }
        if let note = await postgres.store.leaseNote(database: postgres.database, world: AppStore.defaultWorld) { log("PostgreSQL store after the rounds: " + note) }
        if purchases > 0 {
            log(String(format: "PostgreSQL committed %d transactions (all connections, warm-ups included) for %d purchases stored: %.3f commits per purchase (%.1f purchases per commit)",
                       commits, purchases, Double(commits) / Double(purchases), Double(purchases) / Double(max(commits, 1))))
        }
        BenchLogHandler.mute()
        await Self.stop(sqlite)
        await Self.stop(postgres)
        return Figures(
            sqlite: best.sqlite!, postgres: best.postgres!, postgresServerCPU: best.serverCPU,
            commitsPerPurchase: purchases > 0 ? Double(commits) / Double(purchases) : nil)
    }

    static func start(_ engine: BenchEngine) async throws -> Running {
        let scratch = try await ScratchDatabase.make(engine, label: "purchase")
        do {
            let database = try await scratch.open()
            let store = try await AppStore.openForBench(database: database, apps: try BenchServers.demoApps())
            let http = StoreHTTPServer(store: store, host: "127.0.0.1", port: 0)
            let server = try await RunningServer.start { ready in try await http.run(onReady: ready) }
            // As `openstore serve` does once its port is bound: other instances forward here.
            store.advertise("http://127.0.0.1:\(server.port)")
            return (server, store, database, scratch)
        } catch {
            await scratch.remove()
            throw error
        }
    }

    static func stop(_ running: Running) async {
        await running.server.stop()
        await running.store.close()
        await running.scratch.remove()
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
