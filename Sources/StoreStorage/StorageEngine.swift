import SQLKit

/// What the store needs from a database engine. `StoreDatabase` speaks only to this, so the rest
/// of the store (and everything above it) never knows whether SQLite or PostgreSQL holds its state.
protocol StorageEngine: Sendable {
    /// Which SQL the engine takes where the two differ (an index hint, a string search).
    var dialect: StorageDialect { get }
    /// SQLKit reads (placeholders per the engine's dialect).
    var readSQL: any SQLDatabase { get }
    /// Statements that keep leases alive: a connection no read queues on, where the engine has one.
    var leaseSQL: any SQLDatabase { get }
    /// A read written with `?` placeholders, decoded row by row.
    func rows<T: Sendable>(_ sql: String, _ binds: [StoreValue], decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T]
    /// Runs `job` in its own transaction on the writing connection.
    func transaction(_ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws
    /// Writes a whole batch in one transaction.
    func commit(_ batch: WriteBatch) async throws
    func close() async
}

/// The two SQL dialects the store speaks.
enum StorageDialect: Sendable {
    case sqlite, postgres

    /// A case-sensitive "contains" test: `instr` on SQLite, `strpos` on PostgreSQL (LIKE would
    /// treat `%` and `_` in the text as wildcards).
    func contains(_ haystack: String, _ needle: String) -> String {
        switch self {
        case .sqlite: return "instr(\(haystack), \(needle)) > 0"
        case .postgres: return "strpos(\(haystack), \(needle)) > 0"
        }
    }
}

extension PostgresEngine: StorageEngine {
    var dialect: StorageDialect { .postgres }
}
