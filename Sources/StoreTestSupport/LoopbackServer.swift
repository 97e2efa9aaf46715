import Foundation

/// An HTTP server a test runs on a loopback port, whatever serves it (the store's
/// `StoreHTTPServer`, the backend's router, a notification receiver): started, its bound port
/// known, stopped by cancelling it.
public struct LoopbackServer: Sendable {
    /// The port the server bound (port 0 asks the system for a free one).
    public let port: Int
    /// The task running the server; `stop()` cancels it and waits for it.
    public let task: Task<Void, any Error>

    /// Starts a server and returns once it listens.
    ///
    /// `prepare` gets the callback to hand the server's "running" hook and returns the work that
    /// runs it; it runs at once on the caller's side, so it may use what is not `Sendable` (a
    /// router) to build what is (the application). When the server stops before it listens, its
    /// own error is thrown.
    public static func start(
        _ prepare: (_ listening: @escaping @Sendable (Int) -> Void) throws -> @Sendable () async throws -> Void
    ) async throws -> LoopbackServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let run = try prepare { port in continuation.yield(port) }
        let task = Task {
            defer { continuation.finish() }
            try await run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw CancellationError()
        }
        return LoopbackServer(port: port, task: task)
    }

    /// Stops listening and waits until the server has finished.
    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

/// Runs `body` with what `start` made and always calls `stop` afterwards, also when `body` throws.
public func withStarted<Resource, Value>(
    _ start: () async throws -> Resource, stop: (Resource) async -> Void, _ body: (Resource) async throws -> Value
) async throws -> Value {
    let resource = try await start()
    do {
        let value = try await body(resource)
        await stop(resource)
        return value
    } catch {
        await stop(resource)
        throw error
    }
}
