import Logging
import Synchronization

/// The fault behind a 5xx answer, handed from the error middleware to the request log so the
/// failure is logged once, with the request's context, instead of twice. Kept in the request's
/// context (`StoreRequestContext.recordFailure`).
public final class RequestFailure: Sendable {
    private let stored = Mutex<String?>(nil)
    /// The fault's description, once the error middleware recorded one.
    var text: String? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
