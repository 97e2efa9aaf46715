import SQLKit
import StoreShared

/// The connection one write transaction runs on from BEGIN to COMMIT. On PostgreSQL it is the
/// writer's connection of that moment (reopened after a loss), so a transaction never moves to
/// another connection halfway: a loss fails it, and the next write reconnects.
struct BackendWriteConnection: Sendable {
    let sql: any SQLDatabase
    /// Ends a transaction that failed with `error` and says what the failure means to the caller.
    /// On PostgreSQL a lost connection gets no ROLLBACK (a statement sent on a closed connection
    /// is never answered) and becomes `StorageUnavailable`, answered 503.
    let rollback: @Sendable (_ error: any Error) async -> any Error

    /// A connection that is never lost (SQLite's): roll back, and the error stays as it is.
    init(sql: any SQLDatabase) {
        self.sql = sql
        rollback = { error in
            try? await sql.raw("ROLLBACK").run()
            return error
        }
    }

    init(sql: any SQLDatabase, rollback: @escaping @Sendable (_ error: any Error) async -> any Error) {
        self.sql = sql
        self.rollback = rollback
    }
}
