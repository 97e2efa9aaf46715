import Foundation

/// A parsed JSON object with typed accessors, for decoding stored payloads quickly (see
/// `JSONWriter` for why Foundation's coders are avoided on hot paths). Built on the catalog's
/// strict parser, so numbers keep their exact text.
public struct WireObject: Sendable {
    struct Missing: Error, CustomStringConvertible {
        var key: String
        var description: String { "missing or mistyped field \(key)" }
    }

    /// The members in document order; a payload has a few dozen, so a scan beats hashing them.
    /// A duplicated key keeps its last value, as a dictionary would.
    private let members: [(key: String, value: JSONValue)]

    /// Parses one JSON object; throws when the text is not JSON or not an object.
    public init(json: some Collection<UInt8>) throws {
        try self.init(bytes: Array(json))
    }

    init(bytes: [UInt8]) throws {
        guard case .object(let members) = try JSONReader.parse(bytes: bytes) else { throw Missing(key: "(root)") }
        self.members = members
    }

    init(members: [(key: String, value: JSONValue)]) {
        self.members = members
    }

    private subscript(key: String) -> JSONValue? {
        var index = members.count - 1
        while index >= 0 {
            if members[index].key == key { return members[index].value }
            index -= 1
        }
        return nil
    }

    /// The string at `key`; nil when absent or not a string.
    public func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }

    /// The integer at `key`; nil when absent, fractional or beyond 64 bits.
    public func int64(_ key: String) -> Int64? {
        guard case .number(let text)? = self[key] else { return nil }
        // "1e3" is 1000; a fraction, or a number beyond 64 bits, is no integer (and must not trap).
        if let exact = Int64(text) { return exact }
        // Only a fraction or exponent form may name a whole number (`1e3`): digits that do not fit
        // Int64 must not round through Double onto its edge (-9223372036854775809 → Int64.min).
        guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return nil }
        return Double(text).flatMap { Int64(exactly: $0) }
    }

    /// The integer at `key` as `Int`; nil when absent or not a whole number.
    public func int(_ key: String) -> Int? { int64(key).map { Int($0) } }

    /// The Boolean at `key`; nil when absent or not a Boolean.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = self[key] { return value }
        return nil
    }

    /// The strings of the array at `key`, skipping non-strings; nil when absent or not an array.
    public func strings(_ key: String) -> [String]? {
        guard case .array(let values)? = self[key] else { return nil }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// The nested object at `key`; nil when absent or not an object.
    public func object(_ key: String) -> WireObject? {
        if case .object(let members)? = self[key] { return WireObject(members: members) }
        return nil
    }

    /// The string at `key`; throws when it is missing, for required payload fields.
    public func require(_ key: String) throws -> String {
        guard let value = string(key) else { throw Missing(key: key) }
        return value
    }

    /// The integer at `key`; throws when it is missing, for required payload fields.
    public func requireInt64(_ key: String) throws -> Int64 {
        guard let value = int64(key) else { throw Missing(key: key) }
        return value
    }

    /// The string enum case at `key`; throws when missing or not a known raw value.
    public func require<T: RawRepresentable>(_ key: String, as type: T.Type) throws -> T where T.RawValue == String {
        guard let value = string(key).flatMap(T.init(rawValue:)) else { throw Missing(key: key) }
        return value
    }

    /// The string enum case at `key`; nil when missing or not a known raw value.
    public func optional<T: RawRepresentable>(_ key: String, as type: T.Type) -> T? where T.RawValue == String {
        string(key).flatMap(T.init(rawValue:))
    }

    /// The integer enum case at `key`; nil when missing or not a known raw value.
    public func optional<T: RawRepresentable>(_ key: String, as type: T.Type) -> T? where T.RawValue == Int {
        int(key).flatMap(T.init(rawValue:))
    }
}
