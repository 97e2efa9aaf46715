import Foundation
import StoreModel
import StoreSigning

/// Get Transaction History: `/inApps/v1/history` leaves out consumables the app finished;
/// `/inApps/v2/history` returns everything.
public enum TransactionHistoryVersion: String, Sendable, CaseIterable {
    case v1, v2
}

/// The query of Get Transaction History, parsed the way Apple's clients send it (reference §1.2,
/// §1.4): repeated keys for lists, in any order; `True`/`true` booleans; integer milliseconds.
public struct TransactionHistoryRequest: Sendable, Equatable {
    /// The `revision` token of the previous page, to read the next one; nil for the first page.
    public var revision: String?
    /// Inclusive, on `purchaseDate`.
    public var startDate: Int64?
    /// Exclusive, on `purchaseDate`.
    public var endDate: Int64?
    /// `productId` filters: only these products; empty for all.
    public var productIds: [String] = []
    /// `productType` filters (`AUTO_RENEWABLE`, `NON_RENEWABLE`, `CONSUMABLE`, `NON_CONSUMABLE`); empty for all.
    public var productTypes: [ProductKind] = []
    /// `subscriptionGroupIdentifier` filters; empty for all.
    public var subscriptionGroupIdentifiers: [String] = []
    /// `sort=DESCENDING`: newest first; the default is oldest first.
    public var descending = false
    /// `inAppOwnershipType`: only purchased or only family-shared transactions; nil for both.
    public var inAppOwnershipType: InAppOwnershipType?
    /// `revoked`: true for only refunded or revoked transactions, false for only the others, nil for all.
    public var revoked: Bool?

    /// A query with no filters: the first page of every transaction, oldest first.
    public init() {}

    /// For single-valued parameters the last occurrence wins. A parameter Apple's current
    /// documentation does not list is refused (4000000), and the deprecated `excludeRevoked` with
    /// its own code (4000025), rather than ignored.
    public init(parameters: [(key: String, value: String)]) throws(ServerAPIError) {
        for (key, value) in parameters {
            switch key {
            case "revision":
                revision = value
            case "startDate":
                guard let ms = Self.milliseconds(value) else { throw .invalidStartDate }
                startDate = ms
            case "endDate":
                guard let ms = Self.milliseconds(value) else { throw .invalidEndDate }
                endDate = ms
            case "productId":
                guard !value.isEmpty, value.count <= 255 else { throw .invalidProductId }
                productIds.append(value)
            case "productType":
                guard let kind = Self.productTypes[value] else { throw .invalidProductType }
                productTypes.append(kind)
            case "subscriptionGroupIdentifier":
                guard !value.isEmpty, value.count <= 255 else { throw .invalidSubscriptionGroupIdentifier }
                subscriptionGroupIdentifiers.append(value)
            case "sort":
                switch value {
                case "ASCENDING": descending = false
                case "DESCENDING": descending = true
                default: throw .invalidSort
                }
            case "inAppOwnershipType":
                guard let ownership = InAppOwnershipType(rawValue: value) else { throw .invalidInAppOwnershipType }
                inAppOwnershipType = ownership
            case "revoked":
                switch value.lowercased() {
                case "true": revoked = true
                case "false": revoked = false
                default: throw .invalidRevoked
                }
            case "excludeRevoked":
                throw .invalidExcludeRevoked
            default:
                throw .unknownParameter(key)
            }
        }
        if let start = startDate, let end = endDate, start >= end { throw .startDateAfterEndDate }
    }

    /// The query enum of `productType` (not the JWS `type` strings).
    static let productTypes: [String: ProductKind] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing,
        "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
    ]

    static func milliseconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.count <= 19, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }
}

/// Revision tokens: opaque to clients, base64url of a cursor on the change sequence (history) or
/// on (revocation date, transaction ID) (refund history).
enum RevisionToken {
    static func history(seq: Int64, descending: Bool) -> String {
        Base64URL.encode(Array("h1:\(descending ? "D" : "A"):\(seq)".utf8))
    }

    static func parseHistory(_ token: String, descending: Bool) throws(ServerAPIError) -> Int64 {
        guard token.count <= 128, let bytes = Base64URL.decode(token) else { throw .invalidRequestRevision }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "h1", parts[1] == (descending ? "D" : "A"),
              let seq = Int64(parts[2]), seq >= 0
        else { throw .invalidRequestRevision }
        return seq
    }

    static func refunds(revokedMs: Int64, id: Int64) -> String {
        Base64URL.encode(Array("r1:\(revokedMs):\(id)".utf8))
    }

    static func parseRefunds(_ token: String) throws(ServerAPIError) -> (revokedMs: Int64, id: Int64) {
        guard token.count <= 128, let bytes = Base64URL.decode(token) else { throw .invalidRequestRevision }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "r1", let ms = Int64(parts[1]), let id = Int64(parts[2]), id >= 0
        else { throw .invalidRequestRevision }
        return (ms, id)
    }
}

/// Transaction IDs in paths: 1–19 decimal digits (Apple: `INVALID_TRANSACTION_ID` otherwise).
/// Digits that name no possible transaction (`0`, or above `Int64.max`) are a well-formed ID that
/// is not found, as at Apple, so they read as 0, which no transaction has (IDs start at 2×10¹⁵).
enum TransactionNumber {
    static func parse(_ text: String, error: ServerAPIError = .invalidTransactionId) throws(ServerAPIError) -> Int64 {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw error }
        return Int64(text) ?? 0
    }
}

/// A JSON value with its exact type, so a request body can be checked field by field and each
/// wrong field answered with Apple's own error code.
public enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value, keeping integers apart from other numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .integer(value); return }
        if let value = try? container.decode(Double.self) { self = .number(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// The body as a JSON object, or nil when it is not one.
    public static func object(from body: Data) -> [String: JSONValue]? {
        guard !body.isEmpty, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: body) else { return nil }
        return fields
    }

    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: Int64(value)
        default: nil
        }
    }
}
