import Foundation

extension AppStore {
    /// Jumps the world's clock by a parsed duration. A calendar jump (`1M`, `P1Y`) is measured
    /// from the world's current time, so a month from Jan 31 lands on the last day of February.
    /// - Parameter progress: called with the fraction done while a long jump catches up.
    public func advanceTime(_ id: String, by jump: TimeJump, progress: (@Sendable (Double) -> Void)? = nil) async throws -> WorldInfo {
        let ms = jump.milliseconds(from: try await nowMs(id))
        return try await advanceTime(id, byMs: ms, progress: progress)
    }
}
