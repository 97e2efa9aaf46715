import Foundation
import StoreEngine
import StoreModel
import StoreStorage
import StoreTestSupport

let testBundle = "com.example.test"

func makeApp(environment: StoreEnvironment = .sandbox, bundleId: String = testBundle) throws -> StoreApp {
    try StoreApp(bundleId: bundleId, appAppleId: 1_234_567_890, environment: environment, name: "Test", catalogJSON: testCatalogJSON)
}

/// Where a test's store lives: a SQLite file in its own temporary folder, or, when the test
/// command runs the engine tests a second time with `OPENSTORE_TEST_ENGINE=postgres`, a fresh
/// database of its own on the throw-away PostgreSQL server (`OPENSTORE_TEST_POSTGRES_URL`): every
/// engine behaviour holds on both storage engines (issue 11).
func databasePath() -> String {
    if let server = EngineTestDatabase.postgresServer { return EngineTestDatabase.create(on: server) }
    return TemporaryFolder.make("engine").appendingPathComponent("store.sqlite").path
}

func openTestDatabase(_ path: String) async throws -> StoreDatabase {
    guard path.hasPrefix("postgres://") else { return try await StoreDatabase.open(path: path) }
    return try await StoreDatabase.open(url: path)
}

func makeStore(path: String = databasePath(), clock: TestClock = TestClock(), apps: [StoreApp]? = nil) async throws -> AppStore {
    let database = try await openTestDatabase(path)
    return try await AppStore.open(database: database, apps: apps ?? [try makeApp()], clock: clock)
}

enum EngineTestDatabase {

    /// The PostgreSQL server the engine tests run on, when asked to.
    static var postgresServer: String? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["OPENSTORE_TEST_ENGINE"] == "postgres" else { return nil }
        guard let url = environment["OPENSTORE_TEST_POSTGRES_URL"], !url.isEmpty else {
            fatalError("OPENSTORE_TEST_ENGINE=postgres needs OPENSTORE_TEST_POSTGRES_URL (scripts/postgres.sh starts a cluster)")
        }
        return url
    }

    /// Creates an empty database with psql (the cluster's own client) and returns its URL.
    static func create(on server: String) -> String {
        let name = "e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let bin = ProcessInfo.processInfo.environment["OPENSTORE_PG_BIN"].map { $0 + "/psql" } ?? "/usr/bin/psql"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bin)
        process.arguments = [server, "-qc", "CREATE DATABASE \(name)"]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            fatalError("cannot run \(bin): \(error)")
        }
        guard process.terminationStatus == 0 else { fatalError("psql could not create database \(name)") }
        return server.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" + name
    }
}
