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
            return QuietLibraries.wrapping(handler)
        }
    }
}

/// Drops the web framework's and service lifecycle's own start/stop chatter below `warning`
/// ("Server started", "Received signal", "Shutting down") unless the level is debug or trace:
/// the store prints its own start line, and a stop is no news.
enum QuietLibraries {
    static let sources: Set<String> = ["Hummingbird", "HummingbirdCore", "ServiceLifecycle", "UnixSignals"]

    static func wrapping(_ inner: any LogHandler) -> FilteredLogHandler {
        FilteredLogHandler(inner: inner) { event, level in
            event.level < .warning && level > .debug && sources.contains(event.source)
        }
    }
}
