import Foundation

/// A small strict JSON (RFC 8259) reader over UTF-8 bytes. It exists so the catalog reader can keep
/// key order and raw number text, and report syntax errors with a line and column, without ever
/// trapping: nesting depth is bounded and every index is checked.
struct JSONReader {
    struct SyntaxError: Error, Equatable {
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maxDepth = 256

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document. A UTF-8 byte order mark is skipped.
    static func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
        try parse(bytes: [UInt8](data))
    }

    /// Parses one JSON document from bytes already in an array (no copy).
    static func parse(bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipWhitespace()
        if reader.index >= reader.bytes.count {
            throw SyntaxError(message: "invalid JSON: the file is empty")
        }
        let value = try reader.parseValue()
        reader.skipWhitespace()
        if reader.index < reader.bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the end of the document")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after a key")
            }
            index += 1
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        // Fast path: most strings have no escapes; take them whole from the bytes.
        let start = index + 1
        var scan = start
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let end = scan
                let text = bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
                guard let text else {
                    throw SyntaxError(message: "invalid JSON: a string is not valid UTF-8")
                }
                index = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            scan += 1
        }
        return try parseEscapedString()
    }

    /// A string with escapes (or an error in it), scalar by scalar.
    private mutating func parseEscapedString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []  // raw UTF-8 between escapes
        func flush() throws(SyntaxError) {
            if run.isEmpty { return }
            guard let text = String(validating: run, as: UTF8.self) else {
                throw SyntaxError(message: "invalid JSON: a string is not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard index < bytes.count else { throw error("unexpected end of input inside a string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                index += 1
                guard index < bytes.count else { throw error("unexpected end of input inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let first = try parseHex4()
                    if (0xD800...0xDBFF).contains(first) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let second = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(second) else {
                            throw error("unpaired UTF-16 surrogate in a \\u escape")
                        }
                        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                        guard let scalar = Unicode.Scalar(value) else { throw error("invalid \\u escape") }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(first) else {
                            throw error("unpaired UTF-16 surrogate in a \\u escape")
                        }
                        scalars.append(scalar)
                    }
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0x00..<0x20:
                throw error("unescaped control character in a string")
            default:
                run.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw error("invalid number: expected a digit after '.'") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("invalid number: expected an exponent") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
        let utf8 = Array(literal.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        index += utf8.count
    }

    // MARK: - Helpers

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private func describeCurrent() -> String {
        guard let byte = peek() else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    /// An error located at the current position, as "invalid JSON at line L, column C: message".
    private func error(_ message: String) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return SyntaxError(message: "invalid JSON at line \(line), column \(column): \(message)")
    }
}
