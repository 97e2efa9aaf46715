import Foundation
import Hummingbird
import StoreEngine
import StoreModel

/// The admin API's request bodies, and the few conversions from HTTP text to engine values
/// (time rates, durations, StoreKit API names). Decoding only: the rules stay in the engine.
enum AdminBody {
    /// A JSON string or number, for fields people write either way (`"rate": 6` or `"rate": "6"`).
    struct TextOrNumber: Decodable {
        var text: String
        var isNumber: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
                isNumber = false
            } else if let number = try? container.decode(Int64.self) {
                text = String(number)
                isNumber = true
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
                isNumber = true
            } else {
                throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath, debugDescription: "string or number"))
            }
        }
    }

    struct CreateWorld: Decodable {
        var id: String
        var rate: TextOrNumber?
    }

    struct Rate: Decodable { var rate: TextOrNumber }

    struct Advance: Decodable { var duration: TextOrNumber }

    struct SimulatedError: Decodable { var error: String }

    struct Refund: Decodable { var reason: Int? }

    struct AutoRenew: Decodable { var enabled: Bool }

    /// `SessionSwitches`, plus the names it did not know, so a typo is an error and not a no-op.
    struct Settings: Decodable {
        static let known: Set<String> = ["askToBuy", "failRenewals", "billingGracePeriod", "interruptedPurchases", "failTransactions", "failureError", "renewalLimit"]
        var switches: SessionSwitches
        var unknown: [String]

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            switches = try SessionSwitches(from: decoder)
            unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).filter { !Self.known.contains($0) }.sorted()
        }
    }

    static func rate(_ value: TextOrNumber) throws -> TimeRate {
        guard let rate = TimeRate(value.text) else {
            throw RequestError.malformed(
                "\"\(value.text)\" is not a time rate: use an SKTestSession.TimeRate name (oneSecondIsOneDay), its raw value (6) or a multiplier (720x)")
        }
        return rate
    }

    /// A JSON number is milliseconds; a string is anything `DurationParser` reads.
    static func duration(_ value: TextOrNumber) throws -> TimeJump {
        do {
            return try DurationParser.parse(value.text)
        } catch {
            throw RequestError.malformed(error.description)
        }
    }

    static func revocationReason(_ value: Int?) throws -> RevocationReason {
        switch value {
        case nil, 0: .otherReason
        case 1: .dueToIssue
        default: throw RequestError.malformed("field \"reason\" must be 0 (other reason) or 1 (an issue with the app)")
        }
    }

    /// A StoreKit API as `_storeKitErrors` names it (`App Store Sync`), in any case, or as a slug
    /// (`app-store-sync`, `appstoresync`).
    static func failableAPI(_ text: String) throws -> String {
        let wanted = slugKey(text)
        guard let name = AppStore.failableAPIs.first(where: { slugKey($0) == wanted }) else {
            throw RequestError.malformed(
                "unknown StoreKit API \"\(text)\"; one of: \(AppStore.failableAPIs.map(slug).joined(separator: ", "))")
        }
        return name
    }

    static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    private static func slugKey(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}

extension Request {
    /// A JSON body that may be left out entirely (no `Content-Length`, or zero); nil then.
    func decodeJSONIfPresent<T: Decodable>(_ type: T.Type) async throws -> T? {
        let length = headers[.contentLength]
        if length == "0" || (length == nil && headers[.transferEncoding] == nil) { return nil }
        return try await decodeJSON(type)
    }
}
