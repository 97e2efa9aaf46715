import Logging

/// The fault behind a 5xx answer, handed from the error middleware to the request log so the
/// failure is logged once, with the request's context, instead of twice.
public final class RequestFailure: @unchecked Sendable {
    // Written and read by the one task serving the request.
    var text: String?

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
