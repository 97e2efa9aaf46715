import Logging

/// The two errors Hummingbird logs when a server task is cancelled ("Waiting on child channel:
/// CancellationError()", "Server shutdown error: Already closed"): a stop asked for is no error,
/// and tests stop hundreds of servers. Every other line passes through.
enum ShutdownNoiseFilter {
    static func isNoise(_ event: LogEvent) -> Bool {
        guard event.source == "HummingbirdCore" else { return false }
        let text = event.message.description
        return text.hasPrefix("Waiting on child channel: CancellationError") || text.hasPrefix("Server shutdown error: Already closed")
    }

    static func wrapping(_ inner: any LogHandler) -> FilteredLogHandler {
        FilteredLogHandler(inner: inner) { event, _ in isNoise(event) }
    }
}
