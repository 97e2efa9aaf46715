import Foundation

/// `application/x-www-form-urlencoded`, both ways, and percent-decoded path segments: the one
/// decoder of both servers (the store's pages and `/manage`, the backend's dashboard). Browsers
/// send GET forms and POST bodies this way (`+` for spaces), which Hummingbird's query parser does
/// not decode.
public enum FormEncoding {
    /// The pairs of a query string or form body, decoded, in order.
    public static func decode(_ text: String?) -> [(String, String)] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    /// The first value of each name.
    public static func fields(_ text: String?) -> [String: String] {
        Dictionary(decode(text), uniquingKeysWith: { first, _ in first })
    }

    /// As browsers decode it (WHATWG URL, "application/x-www-form-urlencoded parser"): `+` is a
    /// space; `%XX` is the byte XX; a `%` not followed by two hex digits stays as it is; bytes that
    /// are not UTF-8 become U+FFFD. One bad escape does not leave the rest of the value undecoded.
    public static func unescape(_ part: Substring) -> String {
        String(decoding: percentDecodedBytes(part.utf8, plusIsSpace: true), as: UTF8.self)
    }

    /// `%XX` as the byte XX, a `%` not followed by two hex digits kept as it is, and `+` as a space
    /// when `plusIsSpace` (forms; never in paths). Shared by form values and path identifiers.
    public static func percentDecodedBytes(_ utf8: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        let input = Array(utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A value escaped for a query or a form (RFC 3986 unreserved characters only).
    public static func escape(_ value: String) -> String { PercentEncoding.unreserved(value) }

    /// `a=1&b=x%20y`, skipping nil values.
    public static func query(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { name, value in value.map { "\(escape(name))=\(escape($0))" } }.joined(separator: "&")
    }

    /// A path segment decoded: `%XX` escapes as bytes, any other `%` kept (`50%off`), `+` kept;
    /// nil when the bytes are not UTF-8, so a caller refuses the path instead of guessing.
    public static func pathDecoded(_ raw: String) -> String? {
        String(validating: percentDecodedBytes(raw.utf8, plusIsSpace: false), as: UTF8.self)
    }
}
