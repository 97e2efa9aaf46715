import Logging
import Synchronization

/// The fault behind a 5xx answer, handed from the error middleware to the request log so the
/// failure is logged once, with the request's context, instead of twice.
public final class RequestFailure: Sendable {
    private let stored = Mutex<String?>(nil)
    /// The fault's description, once the error middleware recorded one.
    var text: String? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }

    @TaskLocal static var current: RequestFailure?

    /// Keeps `error` for the request log; without one (a router used on its own) logs it here.
    static func record(_ error: any Error, logger: Logger) {
        if let box = current {
            box.text = String(describing: error)
        } else {
            logger.error("request failed", metadata: ["error": .string(String(describing: error))])
        }
    }
}
