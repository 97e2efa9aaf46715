import Foundation

/// Reads a compact JWS without verifying it, for CLIs, logs and tests. Never trust what it returns.
public enum JWSInspector {
    /// The decoded payload bytes, or nil when the input is not three base64url segments.
    public static func payload(of compactJWS: String) -> [UInt8]? {
        guard let segments = segments(of: compactJWS) else { return nil }
        return Base64URL.decode(segments[1])
    }

    /// The decoded header JSON bytes.
    public static func headerJSON(of compactJWS: String) -> [UInt8]? {
        guard let segments = segments(of: compactJWS) else { return nil }
        return Base64URL.decode(segments[0])
    }

    /// The header as a JSON object (values are Foundation JSON types: String, NSNumber, Array...).
    public static func header(of compactJWS: String) -> [String: Any]? {
        guard let json = headerJSON(of: compactJWS),
              let object = try? JSONSerialization.jsonObject(with: Data(json))
        else { return nil }
        return object as? [String: Any]
    }

    private static func segments(of compactJWS: String) -> [Substring]? {
        let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 ? parts : nil
    }
}
