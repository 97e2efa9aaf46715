import Foundation

/// `application/x-www-form-urlencoded`, both ways. Browsers send GET forms and POST bodies this
/// way (`+` for spaces), which Hummingbird's query parser does not decode, so the store pages
/// read and write it themselves.
enum FormEncoding {
    /// The pairs of a query string or form body, decoded, in order.
    static func decode(_ text: String?) -> [(String, String)] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    /// The first value of each name.
    static func fields(_ text: String?) -> [String: String] {
        Dictionary(decode(text), uniquingKeysWith: { first, _ in first })
    }

    static func unescape(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Characters left as they are in a query value or a path segment (RFC 3986 unreserved).
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `a=1&b=x%20y`, skipping nil values.
    static func query(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { name, value in value.map { "\(escape(name))=\(escape($0))" } }.joined(separator: "&")
    }
}
