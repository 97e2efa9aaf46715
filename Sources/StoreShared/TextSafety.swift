import Foundation

/// Comparing secrets without an early exit, so timing does not reveal how much of a guess was
/// right (admin and dashboard tokens).
public enum ConstantTime {
    /// True when both strings have the same UTF-8 bytes. Every byte of the longer one is visited
    /// whatever the first difference, so the answer takes the same time for a near miss and a wild guess.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}

/// Percent-encoding for a query value or a path segment: everything but RFC 3986's unreserved
/// characters (ASCII letters, digits, `-._~`) is encoded, non-ASCII letters included.
public enum PercentEncoding {
    /// RFC 3986's unreserved set spelled out in ASCII: `CharacterSet.alphanumerics` would also let
    /// non-ASCII letters through unencoded.
    public static let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything outside the unreserved set percent-encoded: safe as a query value or
    /// as one path segment. Empty if Foundation cannot encode it.
    public static func unreserved(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreservedCharacters) ?? ""
    }
}
