import Foundation

/// A stored JWS's payload read again without checking its signature: only for data the backend
/// verified when it arrived (a column added later, filled from the rows already kept).
enum SignedPayload {
    static func fields<Fields: Decodable>(ofJWS jws: String, as type: Fields.Type) -> Fields? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONDecoder().decode(Fields.self, from: data)
    }
}
