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
                try await connection.sql().execute(sql: query) { row in
                    delivered.increment()
                    onRow(row)
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

/// Rows handed to a SQLKit caller so far.
private final class RowCount: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
