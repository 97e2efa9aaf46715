/// A small, fast JSON writer for the wire payloads the store emits on every purchase, renewal and
/// read. Foundation's `JSONEncoder` costs tens of microseconds per payload on Linux, more than
/// the ECDSA signature itself; this writes the same JSON (keys in the order given, no escaped
/// slashes) in a few.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    /// An empty writer with room for `capacity` bytes, about one payload's worth by default.
    public init(capacity: Int = 768) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object as a top-level value or array element; close it with `endObject()`.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Closes the innermost object or keyed object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }

    /// Opens an array under `key`; add `element(_:)`s, then `endArray()`.
    public mutating func beginArray(_ key: String) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
    }

    /// Opens an object under `key` (a nested payload field); close it with `endObject()`.
    public mutating func beginObject(_ key: String) {
        writeKey(key)
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Writes `key` and an escaped string; does nothing for nil, so absent fields stay out.
    public mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        writeKey(key)
        writeString(value)
    }

    /// Writes `key` and an integer; does nothing for nil, so absent fields stay out.
    public mutating func field(_ key: String, _ value: Int64?) {
        guard let value else { return }
        writeKey(key)
        writeInteger(value)
    }

    /// Writes `key` and an integer; does nothing for nil.
    public mutating func field(_ key: String, _ value: Int?) {
        field(key, value.map(Int64.init))
    }

    /// Writes `key` and `true` or `false`; does nothing for nil.
    public mutating func field(_ key: String, _ value: Bool?) {
        guard let value else { return }
        writeKey(key)
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    /// Writes `key` and an array of strings; does nothing for nil (an empty array is written).
    public mutating func field(_ key: String, _ values: [String]?) {
        guard let values else { return }
        beginArray(key)
        for value in values { element(value) }
        endArray()
    }

    /// Writes one string inside the current array.
    public mutating func element(_ value: String) {
        separate()
        writeString(value)
    }

    /// Inserts already-encoded JSON as the value of `key`.
    public mutating func raw(_ key: String, _ json: [UInt8]) {
        writeKey(key)
        bytes.append(contentsOf: json)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    private mutating func separate() {
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func writeKey(_ key: String) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func writeInteger(_ value: Int64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them whole.
        var value = value
        let copied: Bool = value.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
