import Logging

/// Drops the two errors Hummingbird logs when a server task is cancelled ("Waiting on child
/// channel: CancellationError()", "Server shutdown error: Already closed"): a stop asked for is
/// no error, and tests stop hundreds of servers. Every other line passes through.
struct ShutdownNoiseFilter: LogHandler {
    var inner: any LogHandler

    static func isNoise(_ event: LogEvent) -> Bool {
        guard event.source == "HummingbirdCore" else { return false }
        let text = event.message.description
        return text.hasPrefix("Waiting on child channel: CancellationError") || text.hasPrefix("Server shutdown error: Already closed")
    }

    func log(event: LogEvent) {
        if !Self.isNoise(event) { inner.log(event: event) }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }
    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}
