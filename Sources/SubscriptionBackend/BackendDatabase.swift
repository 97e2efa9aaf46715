import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import StoreShared

/// The backend's storage, kept behind this one small type (with `BackendTransaction`, the
/// statements of a write): SQLite by default, PostgreSQL by URL (the store's `DatabaseURL`), with
/// its own `bk_*` schema. Portable SQL only: SQLKit builders and parameter binds, quoted
/// identifiers. One connection writes (in transactions, one at a time, through `write`), a
/// second one reads, so customer info never waits for a write.
public final class BackendDatabase: Sendable {
    /// Which engine holds the state.
    public enum Engine: String, Sendable { case sqlite, postgres }

    /// Which engine was opened; the CLI's start-up line reports it.
    public let engine: Engine
    /// The writer connection for statements outside `write` (a test drops its schema with it).
    let writeSQL: any SQLDatabase
    let readSQL: any SQLDatabase
    /// Begins a transaction on the writer connection; `write` runs the rest of it there.
    private let begin: @Sendable () async throws -> BackendWriteConnection
    /// Takes the job lock of the given name if no instance holds it; returns its release.
    private let tryLock: @Sendable (String) async throws -> (@Sendable () async -> Void)?
    private let closeConnections: @Sendable () async -> Void
    private let lock = AsyncLock()

    /// `tryLock` defaults to SQLite's: one process uses the file, so the lock is always free.
    init(engine: Engine, writeSQL: any SQLDatabase, readSQL: any SQLDatabase,
         begin: @escaping @Sendable () async throws -> BackendWriteConnection,
         tryLock: @escaping @Sendable (String) async throws -> (@Sendable () async -> Void)? = { _ in { } },
         close: @escaping @Sendable () async -> Void) {
        self.engine = engine
        self.writeSQL = writeSQL
        self.readSQL = readSQL
        self.begin = begin
        self.tryLock = tryLock
        self.closeConnections = close
    }

    /// Runs `body` unless another instance sharing the database runs the job `name` right now;
    /// then returns nil at once. On PostgreSQL the lock belongs to a connection, so an instance
    /// that dies holding it lets it go with its connection.
    func exclusively<T: Sendable>(_ name: String, _ body: () async throws -> T) async throws -> T? {
        guard let release = try await tryLock(name) else { return nil }
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    /// Opens `sqlite:PATH`, a bare path, or `postgres://user:pass@host:port/db` (as the store's
    /// `--database` takes it), with the schema in place. `schema` (PostgreSQL only) keeps the
    /// tables in a schema of their own, created when missing: tests use one each.
    public static func open(url: String, schema: String? = nil, logger: Logger = Logger(label: "backend.db")) async throws -> BackendDatabase {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("sqlite:") else {
            return try await open(path: trimmed, logger: logger)
        }
        let parsed: DatabaseURL
        do { parsed = try DatabaseURL(parsing: trimmed) } catch { throw BackendConfigurationError("\(error)") }
        return try await open(parsed, schema: schema, logger: logger)
    }

    /// Opens a parsed database URL (the store's own form), with the schema in place.
    public static func open(_ parsed: DatabaseURL, schema: String? = nil, logger: Logger = Logger(label: "backend.db")) async throws -> BackendDatabase {
        switch parsed {
        case .sqlite(let path):
            return try await open(path: path, logger: logger)
        case .postgres(let location):
            let database = try await BackendPostgres.open(location, schema: schema, logger: logger)
            do {
                try await database.createSchema()
            } catch {
                await database.close()
                throw error
            }
            return database
        }
    }

    /// Opens (creating when missing) the SQLite file and its folder, with the schema in place.
    public static func open(path: String, logger: Logger = Logger(label: "backend.db")) async throws -> BackendDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        // The reader's statements run on a thread of their own, one after another. On one SQLite
        // connection, statements run from several threads interleave, and one that starts while
        // another is mid-way shares that one's snapshot: it could miss a commit made in between,
        // and a customer the app had just posted read as unknown (openstore-bench found it).
        let readerThread = NIOThreadPool(numberOfThreads: 1)
        readerThread.start()
        var reader: SQLiteConnection?
        let database: BackendDatabase
        do {
            try await writer.sql().raw("PRAGMA journal_mode=WAL").run()
            try await writer.sql().raw("PRAGMA synchronous=NORMAL").run()
            try await writer.sql().raw("PRAGMA busy_timeout=5000").run()
            // Deleted rows are overwritten, not left in free pages: a deleted customer's data must
            // not stay readable in the file (`SubscriptionBackend.deleteCustomer`).
            try await writer.sql().raw("PRAGMA secure_delete=ON").run()
            let opened = try await SQLiteConnection.open(storage: .file(path: path), threadPool: readerThread, logger: logger,
                                                         on: MultiThreadedEventLoopGroup.singleton.any())
            reader = opened
            try await opened.sql().raw("PRAGMA busy_timeout=5000").run()
            let writeSQL = writer.sql()
            database = BackendDatabase(engine: .sqlite, writeSQL: writeSQL, readSQL: opened.sql(), begin: {
                try await writeSQL.raw("BEGIN IMMEDIATE").run()
                return BackendWriteConnection(sql: writeSQL)
            }) {
                await closeEvenWhenCancelled(writer)
                await closeEvenWhenCancelled(opened)
                try? await readerThread.shutdownGracefully()
            }
        } catch {
            // Closed before they are freed, also when the open is cancelled (a SIGTERM during
            // start-up): SQLiteNIO's debug builds trap on a connection freed open.
            if let reader { await closeEvenWhenCancelled(reader) }
            await closeEvenWhenCancelled(writer)
            try? await readerThread.shutdownGracefully()
            throw error
        }
        do {
            try await database.createSchema()
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Closes `connection` also from a cancelled task. SQLiteNIO's async `close()` runs on its
    /// thread pool's cancellable path, so in a task already cancelled (a SIGTERM while the
    /// backend starts or stops) it closed nothing, and the connection, freed open, trapped in
    /// debug builds. The future-returning `close()` always runs.
    private static func closeEvenWhenCancelled(_ connection: SQLiteConnection) async {
        try? await (connection.close() as EventLoopFuture<Void>).get()
    }

    private func createSchema() async throws {
        try await write { store in try await BackendSchema.create(on: store.sql) }
    }

    /// Closes the writer and reader connections.
    public func close() async {
        await closeConnections()
    }

    /// Runs `body` in one transaction, after every earlier write finished: committed entirely
    /// or not at all.
    func write<T: Sendable>(_ body: @Sendable (BackendTransaction) async throws -> T) async throws -> T {
        let begin = begin
        return try await lock.run {
            let connection = try await begin()
            do {
                let result = try await body(BackendTransaction(sql: connection.sql))
                try await connection.sql.raw("COMMIT").run()
                return result
            } catch {
                throw await connection.rollback(error)
            }
        }
    }

    /// After an erasure: on SQLite, copies the write-ahead log into the file and empties it, so
    /// erased rows' old versions leave the log too (with `secure_delete` the file's own pages are
    /// overwritten). On PostgreSQL old row versions stay until VACUUM, which autovacuum runs.
    func eraseFreedSpace() async {
        guard engine == .sqlite else { return }
        let sql = writeSQL
        _ = try? await lock.run { try await sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").run() }
    }

    /// `write` with the ledger's view (`LedgerStore`), saved before the commit.
    func writeLedger<T: Sendable>(_ body: @Sendable (LedgerStore) async throws -> T) async throws -> T {
        try await write { store in try await LedgerStore.writing(on: store, keys: [], body) }
    }
}

/// A FIFO mutual exclusion for async code (an actor alone would interleave at each await).
final class AsyncLock: @unchecked Sendable {
    private let mutex = NSLock()
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            mutex.lock()
            if busy {
                waiters.append(continuation)
                mutex.unlock()
            } else {
                busy = true
                mutex.unlock()
                continuation.resume()
            }
        }
    }

    private func release() {
        mutex.lock()
        if waiters.isEmpty {
            busy = false
            mutex.unlock()
        } else {
            let next = waiters.removeFirst()
            mutex.unlock()
            next.resume()
        }
    }
}

/// The backend's schema, written with SQLKit's builders so both dialects get it.
enum BackendSchema {
    static let boolean = SQLDataType.custom(SQLRaw("BOOLEAN"))

    /// `CREATE INDEX IF NOT EXISTS`, which both dialects speak (SQLKit's builder has no IF NOT EXISTS).
    static func index(_ name: String, on table: String, _ columns: String..., in sql: any SQLDatabase) async throws {
        try await sql.raw("CREATE INDEX IF NOT EXISTS \(ident: name) ON \(ident: table) (\(idents: columns, joinedBy: ", "))").run()
    }

    /// Adds a column a table made by an older version lacks. PostgreSQL says `IF NOT EXISTS`;
    /// SQLite has no such clause, so its table is asked first.
    /// Returns whether the column was missing (and so is new and empty).
    @discardableResult
    static func addColumn(_ column: String, type: String, to table: String, in sql: any SQLDatabase) async throws -> Bool {
        let names: [String]
        if sql.dialect.name == "sqlite" {
            names = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all(decodingColumn: "name", as: String.self)
        } else {
            names = try await sql.raw("""
                SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(bind: table)
                """).all(decodingColumn: "column_name", as: String.self)
        }
        if names.contains(column) { return false }
        // Instances starting together on one PostgreSQL may both find it missing: IF NOT EXISTS.
        let ifMissing = sql.dialect.name == "sqlite" ? "" : "IF NOT EXISTS "
        try await sql.raw("ALTER TABLE \(ident: table) ADD COLUMN \(unsafeRaw: ifMissing)\(ident: column) \(unsafeRaw: type)").run()
        return true
    }

    /// Fills the new `storefront` column of the transactions stored before it existed, from
    /// each one's signed payload (verified when it was received).
    /// Pages of 500 by key, so a large table never sits in memory whole.
    static func backfillStorefronts(in sql: any SQLDatabase) async throws {
        struct Stored: Decodable { var environment: String; var transactionId: String; var jws: String }
        var after: (environment: String, transactionId: String)?
        while true {
            var page: SQLQueryString = "SELECT \(ident: "environment"), \(ident: "transactionId"), \(ident: "jws") FROM \(ident: "bk_transactions")"
            if let after {
                page += """
                     WHERE \(ident: "environment") > \(bind: after.environment) \
                    OR (\(ident: "environment") = \(bind: after.environment) AND \(ident: "transactionId") > \(bind: after.transactionId))
                    """
            }
            page += " ORDER BY \(ident: "environment"), \(ident: "transactionId") LIMIT 500"
            let rows = try await sql.raw(page).all(decoding: Stored.self)
            guard let last = rows.last else { return }
            for row in rows {
                guard let storefront = SignedPayload.fields(ofJWS: row.jws, as: TransactionFields.self)?.storefront else { continue }
                try await sql.update("bk_transactions").set("storefront", to: storefront)
                    .where("environment", .equal, row.environment).where("transactionId", .equal, row.transactionId).run()
            }
            after = (last.environment, last.transactionId)
        }
    }

    /// The advisory lock key that serializes schema changes of instances starting together on
    /// one PostgreSQL ("bk_schema" as a number): the second finds the first's columns made.
    static let schemaLockKey: Int64 = 0x626B_5F73_6368

    static func create(on sql: any SQLDatabase) async throws {
        if sql.dialect.name != "sqlite" {
            // Held to the end of this transaction: two instances altering one table at once deadlock.
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: schemaLockKey))").run()
        }
        try await sql.create(table: "bk_transactions").ifNotExists()
            .column("environment", type: .text, .notNull).column("transactionId", type: .text, .notNull)
            .column("originalTransactionId", type: .text, .notNull).column("bundleId", type: .text, .notNull)
            .column("productId", type: .text, .notNull).column("groupId", type: .text)
            .column("type", type: .text, .notNull).column("purchaseMs", type: .bigint, .notNull)
            .column("originalPurchaseMs", type: .bigint).column("expiresMs", type: .bigint)
            .column("revocationMs", type: .bigint).column("revocationType", type: .text)
            .column("price", type: .bigint).column("currency", type: .text).column("ownership", type: .text, .notNull)
            .column("offerType", type: .int).column("offerDiscountType", type: .text).column("reason", type: .text)
            .column("appAccountToken", type: .text).column("isUpgraded", type: boolean, .notNull)
            .column("signedMs", type: .bigint, .notNull).column("jws", type: .text, .notNull)
            .column("storefront", type: .text)
            .primaryKey("environment", "transactionId").run()
        try await index("bk_transactions_original", on: "bk_transactions", "environment", "originalTransactionId", in: sql)
        // Added 2026-11-29 (#34 charts' country filter): older databases get it, read from each stored JWS.
        if try await addColumn("storefront", type: "TEXT", to: "bk_transactions", in: sql) {
            try await backfillStorefronts(in: sql)
        }
        try await sql.create(table: "bk_renewals").ifNotExists()
            .column("environment", type: .text, .notNull).column("originalTransactionId", type: .text, .notNull)
            .column("productId", type: .text).column("autoRenewProductId", type: .text).column("autoRenewStatus", type: .int)
            .column("expirationIntent", type: .int).column("inBillingRetry", type: boolean, .notNull)
            .column("gracePeriodExpiresMs", type: .bigint)
            .column("signedMs", type: .bigint, .notNull).column("jws", type: .text, .notNull)
            .column("unsubscribeDetectedMs", type: .bigint).column("autoRenewOnMs", type: .bigint)
            .primaryKey("environment", "originalTransactionId").run()
        try await addColumn("unsubscribeDetectedMs", type: "BIGINT", to: "bk_renewals", in: sql)
        try await addColumn("autoRenewOnMs", type: "BIGINT", to: "bk_renewals", in: sql)
        try await sql.create(table: "bk_links").ifNotExists()
            .column("environment", type: .text, .notNull).column("originalTransactionId", type: .text, .notNull)
            .column("bundleId", type: .text, .notNull).column("appUserId", type: .text, .notNull)
            .primaryKey("environment", "originalTransactionId").run()
        try await index("bk_links_user", on: "bk_links", "appUserId", in: sql)
        try await sql.create(table: "bk_customers").ifNotExists()
            .column("appUserId", type: .text, .primaryKey(autoIncrement: false)).column("firstSeenMs", type: .bigint, .notNull)
            .column("originalAppUserId", type: .text).column("lastSeenMs", type: .bigint)
            .column("firstSeenStoreMs", type: .bigint).run()
        // Added 2026-11-29 (#34 identity): databases made before get the columns here.
        try await addColumn("originalAppUserId", type: "TEXT", to: "bk_customers", in: sql)
        try await addColumn("lastSeenMs", type: "BIGINT", to: "bk_customers", in: sql)
        // Added 2026-11-29 (#34 charts): first sightings on the store's clock.
        try await addColumn("firstSeenStoreMs", type: "BIGINT", to: "bk_customers", in: sql)
        // Other IDs of a customer: an anonymous one merged in, an ID logged in from (`POST …/alias`).
        try await sql.create(table: "bk_user_aliases").ifNotExists()
            .column("alias", type: .text, .primaryKey(autoIncrement: false)).column("appUserId", type: .text, .notNull)
            .column("firstSeenMs", type: .bigint, .notNull).run()
        try await index("bk_user_aliases_user", on: "bk_user_aliases", "appUserId", in: sql)
        try await sql.create(table: "bk_attributes").ifNotExists()
            .column("appUserId", type: .text, .notNull).column("key", type: .text, .notNull)
            .column("value", type: .text, .notNull).column("updatedMs", type: .bigint, .notNull)
            .primaryKey("appUserId", "key").run()
        // Each customer's app transaction per app and environment, as the app last posted it.
        try await sql.create(table: "bk_app_transactions").ifNotExists()
            .column("appUserId", type: .text, .notNull).column("bundleId", type: .text, .notNull)
            .column("environment", type: .text, .notNull).column("appTransactionId", type: .text)
            .column("originalApplicationVersion", type: .text, .notNull).column("originalPurchaseMs", type: .bigint, .notNull)
            .column("signedMs", type: .bigint, .notNull)
            .primaryKey("appUserId", "bundleId", "environment").run()
        // Offerings and experiments (#34 §6): each offering's JSON as the API took it.
        try await sql.create(table: "bk_offerings").ifNotExists()
            .column("bundleId", type: .text, .notNull).column("id", type: .text, .notNull)
            .column("body", type: .text, .notNull).column("isCurrent", type: boolean, .notNull)
            .column("updatedMs", type: .bigint, .notNull)
            .primaryKey("bundleId", "id").run()
        try await sql.create(table: "bk_experiments").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false)).column("bundleId", type: .text, .notNull)
            .column("control", type: .text, .notNull).column("treatment", type: .text, .notNull)
            .column("startMs", type: .bigint, .notNull).column("stopMs", type: .bigint).run()
        try await sql.create(table: "bk_enrollments").ifNotExists()
            .column("experimentId", type: .text, .notNull).column("appUserId", type: .text, .notNull)
            .column("variant", type: .text, .notNull).column("enrolledMs", type: .bigint, .notNull)
            .primaryKey("experimentId", "appUserId").run()
        try await index("bk_enrollments_user", on: "bk_enrollments", "appUserId", in: sql)
        try await sql.create(table: "bk_grants").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false)).column("appUserId", type: .text, .notNull)
            .column("entitlement", type: .text, .notNull).column("bundleId", type: .text, .notNull)
            .column("duration", type: .text, .notNull)
            .column("startMs", type: .bigint, .notNull).column("expiresMs", type: .bigint).column("revokedMs", type: .bigint).run()
        try await index("bk_grants_user", on: "bk_grants", "appUserId", in: sql)
        try await sql.create(table: "bk_aliases").ifNotExists()
            .column("appAccountToken", type: .text, .primaryKey(autoIncrement: false)).column("appUserId", type: .text, .notNull).run()
        try await sql.create(table: "bk_notifications").ifNotExists()
            .column("notificationUUID", type: .text, .primaryKey(autoIncrement: false)).column("bundleId", type: .text, .notNull)
            .column("environment", type: .text, .notNull).column("type", type: .text, .notNull).column("subtype", type: .text)
            .column("signedMs", type: .bigint, .notNull).column("receivedMs", type: .bigint, .notNull).run()
        try await sql.create(table: "bk_cursors").ifNotExists()
            .column("bundleId", type: .text, .notNull).column("environment", type: .text, .notNull)
            .column("lastNotificationMs", type: .bigint, .notNull).column("storeClockMs", type: .bigint, .notNull)
            .primaryKey("bundleId", "environment").run()
        try await sql.create(table: "bk_revisions").ifNotExists()
            .column("environment", type: .text, .notNull).column("bundleId", type: .text, .notNull)
            .column("appUserId", type: .text, .notNull).column("revision", type: .text, .notNull)
            .primaryKey("environment", "bundleId", "appUserId").run()
        try await sql.create(table: "bk_events").ifNotExists()
            .column("seq", type: .bigint, .notNull).column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("type", type: .text, .notNull).column("appUserId", type: .text).column("bundleId", type: .text, .notNull)
            .column("environment", type: .text, .notNull).column("entitlement", type: .text).column("productId", type: .text, .notNull)
            .column("transactionId", type: .text).column("originalTransactionId", type: .text)
            .column("price", type: .bigint).column("currency", type: .text)
            .column("storeTimeMs", type: .bigint, .notNull).column("createdMs", type: .bigint, .notNull)
            .column("body", type: .text, .notNull).run()
        try await index("bk_events_user", on: "bk_events", "appUserId", "seq", in: sql)
        // A batch loads its subscriptions' events by these (LedgerStore.load).
        try await index("bk_events_chain", on: "bk_events", "environment", "originalTransactionId", in: sql)
        // The next event's number is MAX(seq): without this index every event scanned the table,
        // and ingest slowed as events piled up (found by openstore-bench --only backend).
        try await index("bk_events_seq", on: "bk_events", "seq", in: sql)
        try await sql.create(table: "bk_outbox").ifNotExists()
            .column("eventId", type: .text, .notNull).column("url", type: .text, .notNull)
            .column("attempts", type: .int, .notNull).column("nextAttemptMs", type: .bigint, .notNull)
            .column("state", type: .text, .notNull).column("lastStatus", type: .int).column("lastError", type: .text)
            .primaryKey("eventId", "url").run()
        try await index("bk_outbox_due", on: "bk_outbox", "state", "nextAttemptMs", in: sql)
        try await sql.create(table: "bk_deliveries").ifNotExists()
            .column("eventId", type: .text, .notNull).column("url", type: .text, .notNull).column("attempt", type: .int, .notNull)
            .column("atMs", type: .bigint, .notNull).column("httpStatus", type: .int).column("error", type: .text)
            .column("ok", type: boolean, .notNull)
            .primaryKey("eventId", "url", "attempt").run()
        try await sql.create(table: "bk_refund_requests").ifNotExists()
            .column("notificationUUID", type: .text, .primaryKey(autoIncrement: false)).column("bundleId", type: .text, .notNull)
            .column("environment", type: .text, .notNull).column("transactionId", type: .text, .notNull)
            .column("originalTransactionId", type: .text, .notNull).column("reason", type: .text)
            .column("requestedMs", type: .bigint, .notNull).column("deadlineMs", type: .bigint, .notNull)
            .column("state", type: .text, .notNull).column("attempts", type: .int, .notNull)
            .column("nextAttemptMs", type: .bigint, .notNull).column("lastStatus", type: .int).column("lastError", type: .text)
            .column("answeredMs", type: .bigint).column("refundPreference", type: .text)
            .column("outcome", type: .text).column("outcomeMs", type: .bigint).run()
        try await index("bk_refund_requests_due", on: "bk_refund_requests", "state", "nextAttemptMs", in: sql)
        try await index("bk_refund_requests_transaction", on: "bk_refund_requests", "environment", "transactionId", in: sql)
        try await sql.create(table: "bk_consents").ifNotExists()
            .column("appUserId", type: .text, .primaryKey(autoIncrement: false)).column("consented", type: boolean, .notNull)
            .column("recordedMs", type: .bigint, .notNull).run()
    }
}
