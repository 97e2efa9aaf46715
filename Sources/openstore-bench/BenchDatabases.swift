import Foundation
import Logging
import PostgresNIO
import StoreEngine
import StoreModel
import StoreStorage
import StoreShared

/// The engine one figure's store runs on: SQLite (a fresh file) or the PostgreSQL server named by
/// `--database` (a fresh database of its own on it).
enum BenchEngine: Sendable {
    case sqlite
    case postgres(url: String)

    var name: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}

/// An empty database made for one figure and removed after it: a SQLite file in a temporary
/// folder, or a database created on the PostgreSQL server of `--database` (the URL's own database
/// is only used to issue `CREATE DATABASE`). Every figure therefore starts from the same empty
/// state on both engines, and a run never sees the rows, leases or clocks of another run.
final class ScratchDatabase: Sendable {
    let url: DatabaseURL
    private let folder: URL?
    private let server: DatabaseURL.PostgresLocation?

    private init(url: DatabaseURL, folder: URL?, server: DatabaseURL.PostgresLocation?) {
        self.url = url
        self.folder = folder
        self.server = server
    }

    static let logger = Logger(label: "openstore.bench")

    static func make(_ engine: BenchEngine, label: String) async throws -> ScratchDatabase {
        switch engine {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("openstore-bench-\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            return ScratchDatabase(url: .sqlite(path: folder.appendingPathComponent("store.sqlite").path), folder: folder, server: nil)
        case .postgres(let text):
            guard case .postgres(var location) = try DatabaseURL(parsing: text) else {
                throw BenchError("--database must be a postgres:// URL")
            }
            let server = location
            let name = "openstore_bench_\(label)_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
            do {
                try await Self.admin(server) { connection in
                    try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
                }
            } catch {
                throw BenchError("""
                    cannot create the \(label) figure's database on \(DatabaseURL.postgres(server)): \(String(reflecting: error))
                    (the benchmark makes an empty database per figure and drops it after: the user needs CREATEDB)
                    """)
            }
            location.database = name
            return ScratchDatabase(url: .postgres(location), folder: nil, server: server)
        }
    }

    func open() async throws -> StoreDatabase {
        try await StoreDatabase.open(url)
    }

    /// Drops the PostgreSQL database (closing what still uses it) or deletes the SQLite folder.
    /// Runs `body` on a fresh scratch database of `engine`, removed afterwards whatever happens.
    static func using<T>(_ engine: BenchEngine, label: String, _ body: (ScratchDatabase) async throws -> T) async throws -> T {
        let scratch = try await make(engine, label: label)
        do {
            let result = try await body(scratch)
            await scratch.remove()
            return result
        } catch {
            await scratch.remove()
            throw error
        }
    }

    func remove() async {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        if let server, case .postgres(let location) = url {
            _ = try? await Self.admin(server) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)"), logger: Self.logger)
            }
        }
    }

    /// A connection of the benchmark's own (not the store's), for DDL and statistics.
    @discardableResult
    static func admin<T>(_ location: DatabaseURL.PostgresLocation, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The PostgreSQL server's processes, when it runs on this machine (for its CPU time).
    func serverProcesses() async -> PostgresServerProcesses? {
        guard case .postgres(let location) = url else { return nil }
        guard let pid = try? await Self.admin(location, { connection -> Int32? in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_backend_pid()"), logger: Self.logger)
            for try await (pid) in rows.decode(Int32.self) { return pid }
            return nil
        }) else { return nil }
        return PostgresServerProcesses(backend: pid)
    }

    /// Transactions committed in this database so far (all connections; PostgreSQL's cumulative
    /// statistics, flushed by each backend at most once a second) and rows in `transactions`.
    func commitsAndTransactions() async -> (commits: Int64, transactions: Int64)? {
        guard case .postgres(let location) = url else { return nil }
        return try? await Self.admin(location) { connection -> (Int64, Int64)? in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
                       (SELECT count(*) FROM transactions)
                """), logger: Self.logger)
            for try await (commits, transactions) in rows.decode((Int64, Int64).self) { return (commits, transactions) }
            return nil
        }
    }
}

/// CPU time of one PostgreSQL server: its postmaster and every process it started (backends,
/// WAL writer, checkpointer…), read from /proc. Found through a backend's PID, so only a server on
/// this machine (loopback) is measured; other clusters on the machine are not counted.
struct PostgresServerProcesses: Sendable {
    var postmaster: Int32

    init?(backend: Int32) {
        guard let stat = Self.stat(backend), let parent = Int32(stat.ppid) else { return nil }
        postmaster = parent
    }

    /// Seconds of CPU (user + system) used so far by the postmaster and its live children.
    func cpuSeconds() -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = Self.stat(pid) else { continue }
            if pid == postmaster || Int32(stat.ppid) == postmaster { total += stat.cpuTicks / ticks }
        }
        return total
    }

    /// The fields of /proc/PID/stat after the command name: (ppid, utime + stime in ticks).
    private static func stat(_ pid: Int32) -> (ppid: Substring, cpuTicks: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (fields[1], user + system)
    }
}

extension AppStore {
    /// Opens a benchmark's store the way `openstore serve` does: on PostgreSQL as one of many
    /// instances (`InstanceSettings`), so every write carries its world's lease epoch and the
    /// fencing check runs inside each transaction; on SQLite as the file's only writer.
    static func openForBench(
        database: StoreDatabase, apps: [StoreApp], runScheduler: Bool = true, advertiseURL: String = "http://127.0.0.1:1"
    ) async throws -> AppStore {
        let instance = database.supportsManyInstances ? InstanceSettings(advertiseURL: advertiseURL) : nil
        return try await AppStore.open(database: database, apps: apps, runScheduler: runScheduler, instance: instance)
    }

    /// "as instance … holding world default's lease, epoch N": evidence that the figure's writes
    /// were fenced (nil on SQLite).
    func leaseNote(database: StoreDatabase, world: String) async -> String? {
        guard let instance else { return nil }
        guard let lease = try? await database.lease(world: world) else { return "instance \(instance.instanceId): no lease on \(world)?" }
        let mine = lease.owner == instance.instanceId
        return "writes fenced: world \(world)'s lease is held by \(mine ? "this store" : "ANOTHER instance (\(lease.owner))"), epoch \(lease.epoch)"
    }
}
