import NIOPosix
import Synchronization
import VaporCSQLite

/// A SQLite connection with a thread of its own: the batch writer, the statement reader and the
/// checkpointer each own one. SQLite's calls block, so each runs where it cannot stall an event
/// loop or the Swift concurrency pool, and a connection used by one thread needs no mutex
/// (`SQLITE_OPEN_NOMUTEX`). Closing finalizes the statements it prepared, then the handle, then
/// the thread, in that order, whether by `close()` or by being dropped after a failed start-up.
final class SQLiteThreadConnection: @unchecked Sendable {
    // `handle` and `prepared` are touched only on `thread`'s one thread.
    let handle: OpaquePointer
    private let thread: NIOThreadPool
    private var prepared: [OpaquePointer] = []
    private let closed = Atomic<Bool>(false)

    private init(handle: OpaquePointer, thread: NIOThreadPool) {
        self.handle = handle
        self.thread = thread
    }

    /// Starts the thread and opens the file on it; the thread is shut down again if opening fails.
    static func open(path: String, pragmas: [String]) async throws -> SQLiteThreadConnection {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        do {
            let handle = try await thread.runIfActive { SQLitePointer(handle: try SQLiteHandle.open(path: path, pragmas: pragmas)) }
            return SQLiteThreadConnection(handle: handle.handle, thread: thread)
        } catch {
            try? await thread.shutdownGracefully()
            throw error
        }
    }

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Runs `body` on the connection's thread; refused once the connection is closed.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await thread.runIfActive {
            guard !self.isClosed else { throw SQLiteCallError(code: SQLITE_MISUSE, message: "the store is closed") }
            return try body()
        }
    }

    /// Runs `body` on the connection's thread without waiting for it (a checkpoint).
    func submit(_ body: @escaping @Sendable () -> Void) {
        thread.submit { state in
            guard case .active = state, !self.isClosed else { return }
            body()
        }
    }

    /// A statement kept for the connection's life (`SQLITE_PREPARE_PERSISTENT`); on the thread.
    func prepare(_ sql: String) throws -> OpaquePointer {
        let statement = try SQLiteHandle.prepare(handle, sql)
        prepared.append(statement)
        return statement
    }

    /// Finalizes every statement prepared so far (a cache starting over); on the thread.
    func finalizeAll() {
        for statement in prepared { sqlite_nio_sqlite3_finalize(statement) }
        prepared.removeAll()
    }

    func close() async {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = try? await thread.runIfActive { self.closeHandle() }
        try? await thread.shutdownGracefully()
    }

    private func closeHandle() {
        finalizeAll()
        sqlite_nio_sqlite3_close_v2(handle)
    }

    /// A connection dropped without `close()` (a failed start-up) still closes its file.
    deinit {
        if !closed.load(ordering: .acquiring) {
            closeHandle()
            thread.shutdownGracefully { _ in }
        }
    }
}
