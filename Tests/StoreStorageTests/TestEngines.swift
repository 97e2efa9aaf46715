import Foundation
import PostgresNIO
import StoreTestSupport
import Testing
@testable import StoreStorage
import StoreShared

/// The engines a storage test runs on: SQLite always, PostgreSQL too when
/// `OPENSTORE_TEST_POSTGRES_URL` names a server (scripts/test.sh starts a throw-away cluster).
enum TestEngine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["OPENSTORE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var all: [TestEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A fresh, empty store on `engine`: a file in its own temporary folder, or a database of its own
/// on the PostgreSQL server, dropped when the test ends (suites marked `.dropsTestDatabases`).
func temporaryDatabase(_ engine: TestEngine = .sqlite) async throws -> StoreDatabase {
    switch engine {
    case .sqlite:
        let folder = TemporaryFolder.make("storage")
        return try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
    case .postgres:
        return try await StoreDatabase.open(try await TestDatabases.create())
    }
}

/// Databases made for tests on the PostgreSQL server.
enum TestDatabases {
    @TaskLocal static var made: DatabaseList?

    static func server() throws -> DatabaseURL.PostgresLocation {
        guard let text = TestEngine.postgresURL, case .postgres(let location) = try DatabaseURL(parsing: text) else {
            throw TestSetupError(description: "OPENSTORE_TEST_POSTGRES_URL is not a postgres:// URL")
        }
        return location
    }

    /// Creates an empty database and returns its URL.
    static func create() async throws -> DatabaseURL {
        var location = try server()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await admin(location) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        made?.add(name)
        location.database = name
        return .postgres(location)
    }

    static func drop(_ name: String) async {
        guard let location = try? server() else { return }
        try? await admin(location) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        }
    }

    static let logger = Logger(label: "openstore.tests")

    static func admin(_ location: DatabaseURL.PostgresLocation, _ body: (PostgresConnection) async throws -> Void) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(host: location.host, port: location.port, username: location.user, password: location.password,
                                 database: location.database, tls: .disable),
            id: 1, logger: logger)
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }
}

final class DatabaseList: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func add(_ name: String) { lock.withLock { names.append(name) } }
    func take() -> [String] { lock.withLock { defer { names.removeAll() }; return names } }
}

struct TestSetupError: Error, CustomStringConvertible { var description: String }

/// Drops the PostgreSQL databases each test made when it ends, passed or failed.
struct DropsTestDatabases: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        let list = DatabaseList()
        do {
            try await TestDatabases.$made.withValue(list) { try await function() }
        } catch {
            for name in list.take() { await TestDatabases.drop(name) }
            throw error
        }
        for name in list.take() { await TestDatabases.drop(name) }
    }
}

extension Trait where Self == DropsTestDatabases {
    static var dropsTestDatabases: Self { Self() }
}
