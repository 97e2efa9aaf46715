import Logging
import Synchronization

/// Log output of the servers under test: warnings and errors go to stderr while measuring, but
/// the complaints Hummingbird makes when its task is cancelled at the end are dropped (`mute()`),
/// so they don't read as failures.
struct BenchLogHandler: LogHandler {
    static let muted = Atomic<Bool>(false)
    static func mute() { muted.store(true, ordering: .relaxed) }

    private var inner: StreamLogHandler

    init(label: String) { inner = StreamLogHandler.standardError(label: label) }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard !Self.muted.load(ordering: .relaxed) else { return }
        inner.log(event: event)
    }
}
