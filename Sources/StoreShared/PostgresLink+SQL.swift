import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import Synchronization

/// SQLKit's view of a reader connection: the store's SQLKit reads run on PostgreSQL through it,
/// with PostgreSQL's dialect (`$n` binds) and the same reconnect-on-loss rule.
struct PostgresLinkSQL: SQLDatabase {
    let link: PostgresLink
    var logger: Logger { link.logger }

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    /// Reads only: a read that finds its connection cut runs once more on a new one.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let delivered = RowCount()
        for attempt in 1...2 {
            let connection = try await link.connection()
            do {
                try await PostgresCloseWatch.guarded(connection) {
                    try await connection.sql().execute(sql: query) { row in
                        delivered.increment()
                        onRow(row)
                    }
                }
                return
            } catch {
                let failure = await link.failure(error, on: connection)
                // Again only when the connection was lost and no row reached the caller yet.
                if attempt == 1, failure is StorageUnavailable, delivered.value == 0 { continue }
                throw failure
            }
        }
    }
}

/// SQLKit's view of one connection inside a transaction (`PostgresLink.begin`): each statement
/// fails at once if the connection closed under it (`PostgresCloseWatch`), instead of waiting
/// for an answer that never comes.
package struct PostgresConnectionSQL: SQLDatabase {
    let connection: PostgresConnection
    package let logger: Logger

    package init(_ connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    package var eventLoop: any EventLoop { connection.eventLoop }
    package var dialect: any SQLDialect { PostgresDialect() }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let connection = connection
        try await PostgresCloseWatch.guarded(connection) { try await connection.sql().execute(sql: query, onRow) }
    }
}

/// Rows handed to a SQLKit caller so far.
private final class RowCount: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
