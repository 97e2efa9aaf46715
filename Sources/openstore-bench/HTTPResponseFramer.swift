import NIOCore

/// Finds where each HTTP/1.1 response ends in a keep-alive byte stream, and its status.
///
/// The load generator needs nothing else from a response, so it frames bytes itself instead of
/// running NIOHTTP1's decoder: no header dictionaries, no per-part allocations. It understands
/// `Content-Length`, `Transfer-Encoding: chunked` and body-less statuses; anything else is an error,
/// never a silently wrong count.
struct HTTPResponseFramer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private enum State {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case trailer
    }

    private var buffer = ByteBuffer()
    private var state = State.head
    private var status = 0
    private var bodyStart = 0
    /// Body of the last non-2xx response (up to 300 bytes), to say why a run failed.
    private(set) var lastErrorBody = ""

    private static let crlf: [UInt8] = [13, 10]
    private static let headEnd: [UInt8] = [13, 10, 13, 10]

    mutating func append(_ bytes: inout ByteBuffer) {
        if buffer.readableBytes == 0 {
            buffer = bytes  // the common case on loopback: no copy
        } else {
            buffer.writeBuffer(&bytes)
        }
    }

    /// The status of the next complete response, which is consumed; nil until one is complete.
    mutating func nextResponse() throws(Failure) -> Int? {
        while true {
            switch state {
            case .head:
                guard let end = find(Self.headEnd) else { return nil }
                try parseHead(length: end)
                buffer.moveReaderIndex(forwardBy: end + 4)
            case .body(let remaining):
                guard buffer.readableBytes >= remaining else { return nil }
                if status >= 300 { lastErrorBody = buffer.getString(at: buffer.readerIndex, length: min(remaining, 300)) ?? "" }
                buffer.moveReaderIndex(forwardBy: remaining)
                return finish()
            case .chunkSize:
                guard let end = find(Self.crlf) else { return nil }
                var size = 0
                for byte in buffer.readableBytesView.prefix(end) {
                    guard let digit = Self.hexValue(byte) else { break }  // stops at chunk extensions
                    size = size * 16 + digit
                }
                buffer.moveReaderIndex(forwardBy: end + 2)
                state = size == 0 ? .trailer : .chunkData(remaining: size + 2)
            case .chunkData(let remaining):
                guard buffer.readableBytes >= remaining else { return nil }
                buffer.moveReaderIndex(forwardBy: remaining)
                state = .chunkSize
            case .trailer:
                guard let end = find(Self.crlf) else { return nil }
                buffer.moveReaderIndex(forwardBy: end + 2)
                if end == 0 { return finish() }  // empty line: end of trailers
            }
        }
    }

    private mutating func finish() -> Int {
        state = .head
        if buffer.readableBytes == 0 { buffer.clear() } else if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
        return status
    }

    /// Reads the status and the framing headers of a head `length` bytes long (without its blank line).
    private mutating func parseHead(length: Int) throws(Failure) {
        let head = buffer.readableBytesView.prefix(length)
        // "HTTP/1.1 200 OK"
        guard head.count >= 12, head.starts(with: "HTTP/1.".utf8) else {
            throw Failure(description: "not an HTTP/1.x response: \(String(decoding: head.prefix(40), as: UTF8.self))")
        }
        var code = 0
        for byte in head.dropFirst(9).prefix(3) {
            guard byte >= 48, byte <= 57 else { throw Failure(description: "bad status line") }
            code = code * 10 + Int(byte - 48)
        }
        status = code
        var contentLength: Int?
        var chunked = false
        for line in head.split(separator: 10).dropFirst() {
            if Self.hasPrefix(line, "content-length:") {
                var value = 0
                for byte in line.dropFirst(15) where byte >= 48 && byte <= 57 { value = value * 10 + Int(byte - 48) }
                contentLength = value
            } else if Self.hasPrefix(line, "transfer-encoding:") {
                chunked = String(decoding: line, as: UTF8.self).lowercased().contains("chunked")
            }
        }
        if chunked {
            state = .chunkSize
        } else if let contentLength {
            state = .body(remaining: contentLength)
        } else if code == 204 || code == 304 || code < 200 {
            state = .body(remaining: 0)
        } else {
            throw Failure(description: "response \(code) has neither Content-Length nor chunked encoding")
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard bytes.count >= needle.count else { return nil }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == needle[0] {
                    var match = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        match = false
                        break
                    }
                    if match { return index }
                }
                index += 1
            }
            return nil
        }
    }

    private static func hasPrefix(_ line: ByteBufferView.SubSequence, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return prefix.withUTF8Buffer { expected in
            var index = line.startIndex
            for byte in expected {
                let actual = line[index]
                // ASCII lower-casing; header names are case-insensitive.
                if (actual >= 65 && actual <= 90 ? actual + 32 : actual) != byte { return false }
                index = line.index(after: index)
            }
            return true
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 97...102: Int(byte - 87)
        case 65...70: Int(byte - 55)
        default: nil
        }
    }
}
