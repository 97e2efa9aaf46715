/// One Server-Sent Event (the `text/event-stream` format of the HTML standard).
struct ServerSentEvent: Sendable, Equatable {
    var id: String?
    var type: String
    var data: String
}

/// Splits a `text/event-stream` into events, as bytes arrive. Comments (`: keep-alive`) and
/// unknown fields are ignored; a line longer than `maxLine` is dropped rather than buffered
/// without end.
struct ServerSentEventParser {
    static let maxLine = 1 << 20
    private var line: [UInt8] = []
    private var overlong = false
    private var id: String?
    private var type: String?
    private var data: [String] = []

    /// Events completed by these bytes, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !overlong, let event = take(line) { events.append(event) }
                line.removeAll(keepingCapacity: true)
                overlong = false
            } else if line.count < Self.maxLine {
                line.append(byte)
            } else {
                overlong = true
            }
        }
        return events
    }

    private mutating func take(_ raw: [UInt8]) -> ServerSentEvent? {
        var bytes = raw[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if bytes.isEmpty {
            defer { id = nil; type = nil; data = [] }
            guard !data.isEmpty || type != nil else { return nil }
            return ServerSentEvent(id: id, type: type ?? "message", data: data.joined(separator: "\n"))
        }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "id": id = String(value)
        case "event": type = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
