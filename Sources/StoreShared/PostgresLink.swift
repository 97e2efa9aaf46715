import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import SQLKit

/// One PostgreSQL connection that reopens itself: after the server restarts or the network drops,
/// the next use connects again, so the store recovers without being restarted. Public so the
/// subscription backend's connections recover the same way.
public actor PostgresLink {
    /// What every new connection runs before its first use (the backend's `SET search_path`): a
    /// reopened connection is a new session, which keeps none of the old one's settings.
    public typealias Setup = @Sendable (PostgresConnection) async throws -> Void

    private let configuration: PostgresConnection.Configuration
    private let location: DatabaseURL.PostgresLocation
    package nonisolated let logger: Logger
    private let id: Int
    private let setup: Setup?
    private var current: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?

    package init(configuration: PostgresConnection.Configuration, location: DatabaseURL.PostgresLocation, id: Int, logger: Logger,
         setup: Setup? = nil) {
        self.configuration = configuration
        self.location = location
        self.id = id
        self.logger = logger
        self.setup = setup
    }

    /// A link to `location` that connects on first use.
    public init(location: DatabaseURL.PostgresLocation, id: Int, logger: Logger, setup: Setup? = nil) throws {
        self.init(configuration: try location.connectionConfiguration(), location: location, id: id, logger: logger, setup: setup)
    }

    /// The open connection, connecting first when there is none (concurrent callers share one attempt).
    public func connection() async throws -> PostgresConnection {
        if let current, !current.isClosed { return current }
        if let connecting { return try await connecting.value }
        let task = Task { [configuration, id, logger, location, setup] in
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
            } catch {
                throw StorageUnavailable.unreachable(location, error)
            }
            do {
                try await setup?(connection)
            } catch {
                let lost = PostgresFailure.isConnectionLoss(error, connection: connection)
                try? await connection.close()
                throw lost ? StorageUnavailable.unreachable(location, error) : error
            }
            return connection
        }
        connecting = task
        defer { connecting = nil }
        let connection = try await task.value
        current = connection
        return connection
    }

    /// Drops a connection that failed, so the next use opens a new one.
    public func discard(_ connection: PostgresConnection) async {
        if current === connection { current = nil }
        try? await connection.close()
    }

    /// What a failed statement means to its caller: a lost connection is dropped (the next use
    /// reconnects) and becomes `StorageUnavailable`, "try again later"; a statement's own error
    /// stays as it is.
    public func failure(_ error: any Error, on connection: PostgresConnection) async -> any Error {
        guard PostgresFailure.isConnectionLoss(error, connection: connection) else { return error }
        await discard(connection)
        return error as? StorageUnavailable ?? StorageUnavailable.lost(location, error)
    }

    /// BEGIN on the connection of the moment. One found cut here (the server restarted since the
    /// last write) is replaced once, as nothing of the transaction was sent yet; a loss later fails
    /// the transaction instead (`abandon`), since its COMMIT may have landed.
    public func begin() async throws -> PostgresConnection {
        for attempt in 1...2 {
            let connection = try await connection()
            do {
                try await PostgresCloseWatch.guarded(connection) { [logger] in _ = try await connection.query("BEGIN", logger: logger) }
                return connection
            } catch {
                let failure = await failure(error, on: connection)
                if attempt == 1, failure is StorageUnavailable { continue }
                throw failure
            }
        }
        preconditionFailure("unreachable")
    }

    /// Ends a transaction from `begin()` that failed with `error`: ROLLBACK unless the connection
    /// is closed (PostgresNIO never answers a query sent on a closed one: `PostgresCloseWatch`), then what the failure
    /// means to the caller (`failure`).
    public func abandon(_ connection: PostgresConnection, after error: any Error) async -> any Error {
        if !connection.isClosed {
            _ = try? await PostgresCloseWatch.guarded(connection) { [logger] in _ = try await connection.query("ROLLBACK", logger: logger) }
        }
        return await failure(error, on: connection)
    }

    /// SQLKit's view of this link for statements that may run again: one that finds the
    /// connection cut before any row came back runs once more on a new connection.
    public nonisolated var sql: any SQLDatabase { PostgresLinkSQL(link: self) }

    /// Closes the connection now rather than at deinit; a later `connection()` would open a new one.
    public func close() async {
        if let current { try? await current.close() }
        current = nil
    }

    /// A store freed without `close()` (a command that exits early, a test) still closes its
    /// connection: the server frees the backend at once instead of when TCP notices, and debug
    /// builds of PostgresNIO assert that no connection is freed open. The closure keeps the
    /// connection until the close completes.
    deinit {
        if let connection = current {
            connection.close().whenComplete { _ in _ = connection }
        }
    }
}

extension StorageUnavailable {
    package static func unreachable(_ location: DatabaseURL.PostgresLocation, _ error: any Error) -> StorageUnavailable {
        StorageUnavailable(
            "cannot connect to PostgreSQL at \(location.host):\(location.port) (database \(location.database), user \(location.user)): \(PostgresFailure.describe(error))")
    }

    package static func lost(_ location: DatabaseURL.PostgresLocation, _ error: any Error) -> StorageUnavailable {
        StorageUnavailable(
            "lost the connection to PostgreSQL at \(location.host):\(location.port) (database \(location.database)): \(PostgresFailure.describe(error))")
    }
}

/// Short, secret-free descriptions of PostgresNIO's errors (its `PSQLError` prints "generic" text).
package enum PostgresFailure {
    package static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    /// Whether the failure is the connection's (the server went away, the network failed) rather
    /// than the statement's: those are answered "try again later", not "bad request".
    package static func isConnectionLoss(_ error: any Error, connection: PostgresConnection?) -> Bool {
        if error is StorageUnavailable { return true }
        if let connection, connection.isClosed { return true }
        guard let error = error as? PSQLError else { return error is ChannelError || error is IOError }
        if [PSQLError.Code.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection].contains(error.code) {
            return true
        }
        // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 08xxx connection exceptions.
        if let state = error.serverInfo?[.sqlState], state.hasPrefix("57P") || state.hasPrefix("08") { return true }
        return false
    }
}
