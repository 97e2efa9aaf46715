import Foundation
import Logging
import Synchronization

/// swift-log's handler for `--log-format json`: one JSON object per line on standard error,
/// `{"time":"…Z","level":"info","label":"openstore","message":"…", …metadata}`, which log stacks
/// (Loki, Elasticsearch, CloudWatch) read without a parser of their own.
public struct JSONLogHandler: LogHandler {
    /// The handler's own metadata, merged into every line (swift-log's `LogHandler`).
    public var metadata: Logger.Metadata = [:]
    /// Lines below this level are not written.
    public var logLevel: Logger.Level = .info
    /// Task-scoped metadata swift-log adds to each line.
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let output: @Sendable (String) -> Void

    /// `output` gets each line with its newline; by default it goes to standard error whole.
    public init(label: String, output: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.output = output
    }

    /// One key of the handler's metadata.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event as one JSON object on one line.
    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let explicit = event.metadata { fields.merge(explicit) { _, new in new } }
        if let error = event.error { fields["error"] = .string(String(describing: error)) }
        let level = event.level, message = event.message
        var object: [String: Any] = [:]
        for (key, value) in fields { object[key] = Self.plain(value) }
        object["time"] = Self.timestamp()
        object["level"] = level.rawValue
        object["label"] = label
        object["message"] = message.description
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else { return }
        output(text + "\n")
    }

    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let convertible):
            // Numbers stay numbers, so a log stack can sum and compare them.
            if let number = convertible as? Int { return number }
            if let number = convertible as? Int64 { return number }
            if let number = convertible as? Double, number.isFinite { return number }
            return convertible.description
        case .array(let values): return values.map(plain)
        case .dictionary(let fields): return fields.mapValues(plain)
        }
    }

    /// The line's `timestamp`: ISO 8601 with milliseconds, UTC.
    public static func timestamp() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let ms = Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    private static let lock = Mutex(())

    /// Writes the line with one `write` under a lock, so lines from concurrent tasks never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }
}
