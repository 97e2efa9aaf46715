import Logging

/// A log handler that passes every line to `inner` except those `drops` names: the one place the
/// store's quieting rules (library chatter, Hummingbird's cancellation complaints) wrap a handler
/// without each rule re-forwarding swift-log's handler members.
public struct FilteredLogHandler: LogHandler {
    /// The handler lines go to when not dropped.
    public var inner: any LogHandler
    /// True for a line to drop; gets the event and the level `inner` is set to.
    public let drops: @Sendable (LogEvent, Logger.Level) -> Bool

    /// Kept here and merged into each line rather than set on `inner`: a handler such as
    /// `StreamLogHandler` re-renders its whole metadata on every change, and every request sets
    /// its ID (a measurable share of a purchase's CPU), while most requests write no line at all.
    public var metadata: Logger.Metadata

    /// Passes every event to `inner` unless `drops` says to drop it.
    public init(inner: any LogHandler, drops: @escaping @Sendable (LogEvent, Logger.Level) -> Bool) {
        var inner = inner
        self.metadata = inner.metadata
        inner.metadata = [:]
        self.inner = inner
        self.drops = drops
    }

    /// Writes the event through `inner`, unless dropped.
    public func log(event: LogEvent) {
        guard !drops(event, inner.logLevel) else { return }
        guard !metadata.isEmpty else { return inner.log(event: event) }
        var event = event
        // The line's own metadata wins over the logger's, as swift-log's handlers merge them.
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, line in line }
        inner.log(event: event)
    }

    /// `inner`'s level.
    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
    /// `inner`'s metadata provider.
    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }
    /// One key of `inner`'s metadata.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
