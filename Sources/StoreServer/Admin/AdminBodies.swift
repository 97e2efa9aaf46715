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

    /// The API's time rates, exactly as openapi.json's `TimeRate` spells them: a case name, its
    /// raw value (a number or a string of digits), or a multiplier such as `720x` or `0.5x`. The
    /// CLI reads more spellings (`TimeRate.init(_:)`); a contract a generator reads stays exact.
    static func rate(_ value: TextOrNumber) throws -> TimeRate {
        let text = value.text
        let exact = AppleTimeRate.allCases.contains { $0.name == text || String($0.rawValue) == text }
            || text.wholeMatch(of: /(?:[1-9][0-9]{0,8}(?:\.[0-9]{1,6})?|0\.[0-9]{0,5}[1-9])x/) != nil
        guard exact, let rate = TimeRate(text) else {
            throw RequestError.malformed(
                "\"\(text)\" is not a time rate: use an SKTestSession.TimeRate name (oneSecondIsOneDay), its raw value (6) or a multiplier (720x)")
        }
        return rate
    }

    /// A JSON number is milliseconds; a string is openapi.json's `Duration`: digits with one
    /// unit (`45s`, `30m`, `12h`, `1d`, `2w`, `1M`, `1y`), or ISO 8601 with one component. A
    /// well-formed jump over 100 years is refused as 422: the request is readable, its size is not.
    static func duration(_ value: TextOrNumber) throws -> TimeJump {
        let text = value.text
        guard value.isNumber ? text.wholeMatch(of: /[0-9]{1,15}/) != nil
                             : text.wholeMatch(of: /[0-9]{1,15}(?:ms|s|m|h|d|w|M|y)?|P[0-9]{1,7}[YMWD]|PT[0-9]{1,10}[HMS]/) != nil
        else { throw RequestError.malformed(DurationParser.Failure.invalid(text).description) }
        do {
            return try DurationParser.parse(text)
        } catch {
            throw RequestError(status: 422, code: "durationTooLong", message: error.description)
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
            throw RequestError(status: 404, code: "notFound", message:
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
