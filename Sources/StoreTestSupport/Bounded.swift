import Foundation

/// Waits at most `seconds` for `body`, then fails with `Overran`: work stuck on a dead connection
/// fails the test instead of stalling the run. A bound on a hang, not a speed limit; a body that
/// overruns is left behind.
public func finishing(within seconds: Int, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let (outcome, finished) = AsyncStream<Result<Void, any Error>>.makeStream()
    Task {
        do { try await body(); finished.yield(.success(())) } catch { finished.yield(.failure(error)) }
    }
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        finished.yield(.failure(Overran(seconds: seconds)))
    }
    defer { timer.cancel() }
    for await result in outcome { return try result.get() }
}

/// `finishing(within:)` ran out of time.
public struct Overran: Error, CustomStringConvertible {
    public let seconds: Int
    public var description: String { "did not finish within \(seconds) s: work waited on a dead connection" }
}
