import Foundation
import Synchronization

/// Keeps the backend's Server API calls within Apple's published rate limits ("Identifying rate
/// limits": 50 requests a second for Get Transaction History, Get All Subscription Statuses and
/// Get Notification History in production; the sandbox allows 10 % of that, 5). One pacer per app
/// and environment: Apple counts per app, and the pacer holds every endpoint the reconciler calls
/// to the one rate, so their sum stays within any one endpoint's limit.
///
/// Calls to any other base URL (an OpenStoreKit store) are not paced: the store says so itself
/// with 429 and `Retry-After` when it runs with `--rate-limit`.
final class ServerAPIPacer: Sendable {
    /// Requests a second; nil when the base URL is not one of Apple's hosts.
    let rate: Double?
    private let next = Mutex<ContinuousClock.Instant?>(nil)

    init(baseURL: String) {
        rate = Self.appleRate(baseURL: baseURL)
    }

    /// Apple's rate for its production and sandbox hosts; nil for any other host.
    static func appleRate(baseURL: String) -> Double? {
        guard let host = URLComponents(string: baseURL)?.host?.lowercased() else { return nil }
        switch host {
        case "api.storekit.itunes.apple.com": return 50
        case "api.storekit-sandbox.itunes.apple.com": return 5
        default: return nil
        }
    }

    /// Waits for this call's turn: calls leave at most `rate` a second, evenly spaced.
    func acquire() async throws {
        guard let rate else { return }
        let spacing = Duration.nanoseconds(Int64(1e9 / rate))
        let now = ContinuousClock.now
        let slot = next.withLock { next -> ContinuousClock.Instant in
            let slot = max(now, next ?? now)
            next = slot + spacing
            return slot
        }
        if slot > now { try await Task.sleep(until: slot, clock: .continuous) }
    }
}

extension ServerAPIFailure {
    /// How long a 429's `Retry-After` asks to wait. Apple's header holds the UNIX time in
    /// milliseconds at which requests are accepted again; a small number is read as seconds, as
    /// HTTP defines the header. Nil when there is no usable header.
    static func retryDelay(retryAfter: String?, nowMs: Int64) -> Duration? {
        guard let text = retryAfter?.trimmingCharacters(in: .whitespaces), let value = Int64(text), value >= 0 else { return nil }
        if value > 100_000_000_000 { return .milliseconds(max(0, value - nowMs)) }  // a UNIX time in ms (Apple)
        return .seconds(value)
    }
}
