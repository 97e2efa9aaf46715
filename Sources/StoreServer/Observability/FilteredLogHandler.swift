import Logging

/// A log handler that passes every line to `inner` except those `drops` names: the one place the
/// store's quieting rules (library chatter, Hummingbird's cancellation complaints) wrap a handler
/// without each rule re-forwarding swift-log's handler members.
public struct FilteredLogHandler: LogHandler {
    public var inner: any LogHandler
    /// True for a line to drop; gets the event and the level `inner` is set to.
    public let drops: @Sendable (LogEvent, Logger.Level) -> Bool

    public init(inner: any LogHandler, drops: @escaping @Sendable (LogEvent, Logger.Level) -> Bool) {
        self.inner = inner
        self.drops = drops
    }

    public func log(event: LogEvent) {
        if !drops(event, inner.logLevel) { inner.log(event: event) }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }
    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}
