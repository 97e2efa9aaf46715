import Logging
import StoreServer

/// `--log-format` and `--log-level` for the whole process, set once before the store starts.
enum LogSetup {
    static func bootstrap(format: LogFormat, level: String) {
        let level = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = format == .json
                ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return QuietLibraries(inner: handler)
        }
    }
}

/// Drops the web framework's and service lifecycle's own start/stop chatter below `warning`
/// ("Server started", "Received signal", "Shutting down") unless the level is debug or trace:
/// the store prints its own start line, and a stop is no news.
struct QuietLibraries: LogHandler {
    var inner: any LogHandler
    static let sources: Set<String> = ["Hummingbird", "HummingbirdCore", "ServiceLifecycle", "UnixSignals"]

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

    func log(event: LogEvent) {
        if event.level < .warning && inner.logLevel > .debug && Self.sources.contains(event.source) { return }
        inner.log(event: event)
    }
}
