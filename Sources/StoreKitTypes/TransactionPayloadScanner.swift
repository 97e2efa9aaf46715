import StoreModel

/// A one-pass reader of the flat transaction payloads the store signs, for the client's hot path
/// (every transaction a client sees is decoded). It knows only flat members with plain strings,
/// integers and booleans; anything else (an unknown or nested member, an escape, a fraction, null)
/// makes it give up and return nil, and the caller decodes with `TransactionPayload(json:)`, which
/// reads everything. So a field added to the payload later is never lost, only slower.
package enum TransactionPayloadScanner {
    package static func decode(_ bytes: [UInt8]) -> TransactionPayload? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            return scanner.payload()
        }
    }

    private enum Value {
        case string(String)
        case integer(Int64)
        case bool(Bool)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func payload() -> TransactionPayload? {
            var originalTransactionId: String?, transactionId: String?, webOrderLineItemId: String?, bundleId: String?
            var productId: String?, subscriptionGroupIdentifier: String?, purchaseDate: Int64?, originalPurchaseDate: Int64?
            var expiresDate: Int64?, quantity: Int64?, type: TransactionType?, appAccountToken: String?
            var ownership: InAppOwnershipType?, signedDate: Int64?, revocationReason: RevocationReason?, revocationDate: Int64?
            var isUpgraded: Bool?, offerType: OfferType?, offerIdentifier: String?, environment: StoreEnvironment?
            var storefront: String?, storefrontId: String?, reason: TransactionReason?, currency: String?, price: Int64?
            var offerDiscountType: OfferDiscountType?, appTransactionId: String?, offerPeriod: String?
            var revocationType: RevocationType?, revocationPercentage: Int64?, billingPlanType: BillingPlanType?

            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = value() else { return nil }
                    switch (key, value) {
                    case ("originalTransactionId", .string(let v)): originalTransactionId = v
                    case ("transactionId", .string(let v)): transactionId = v
                    case ("webOrderLineItemId", .string(let v)): webOrderLineItemId = v
                    case ("bundleId", .string(let v)): bundleId = v
                    case ("productId", .string(let v)): productId = v
                    case ("subscriptionGroupIdentifier", .string(let v)): subscriptionGroupIdentifier = v
                    case ("purchaseDate", .integer(let v)): purchaseDate = v
                    case ("originalPurchaseDate", .integer(let v)): originalPurchaseDate = v
                    case ("expiresDate", .integer(let v)): expiresDate = v
                    case ("quantity", .integer(let v)): quantity = v
                    case ("type", .string(let v)): guard let t = TransactionType(rawValue: v) else { return nil }; type = t
                    case ("appAccountToken", .string(let v)): appAccountToken = v
                    case ("inAppOwnershipType", .string(let v)): guard let o = InAppOwnershipType(rawValue: v) else { return nil }; ownership = o
                    case ("signedDate", .integer(let v)): signedDate = v
                    case ("revocationReason", .integer(let v)):
                        guard let r = Int(exactly: v).flatMap(RevocationReason.init(rawValue:)) else { return nil }; revocationReason = r
                    case ("revocationDate", .integer(let v)): revocationDate = v
                    case ("isUpgraded", .bool(let v)): isUpgraded = v
                    case ("offerType", .integer(let v)): guard let o = Int(exactly: v).flatMap(OfferType.init(rawValue:)) else { return nil }; offerType = o
                    case ("offerIdentifier", .string(let v)): offerIdentifier = v
                    case ("environment", .string(let v)): guard let e = StoreEnvironment(rawValue: v) else { return nil }; environment = e
                    case ("storefront", .string(let v)): storefront = v
                    case ("storefrontId", .string(let v)): storefrontId = v
                    case ("transactionReason", .string(let v)): guard let r = TransactionReason(rawValue: v) else { return nil }; reason = r
                    case ("currency", .string(let v)): currency = v
                    case ("price", .integer(let v)): price = v
                    case ("offerDiscountType", .string(let v)): guard let d = OfferDiscountType(rawValue: v) else { return nil }; offerDiscountType = d
                    case ("appTransactionId", .string(let v)): appTransactionId = v
                    case ("offerPeriod", .string(let v)): offerPeriod = v
                    case ("revocationType", .string(let v)): guard let r = RevocationType(rawValue: v) else { return nil }; revocationType = r
                    case ("revocationPercentage", .integer(let v)): revocationPercentage = v
                    case ("billingPlanType", .string(let v)): guard let b = BillingPlanType(rawValue: v) else { return nil }; billingPlanType = b
                    default: return nil
                    }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            guard index == bytes.count,
                  let originalTransactionId, let transactionId, let bundleId, let productId, let purchaseDate, let originalPurchaseDate,
                  let type, let environment, let storefront, let storefrontId, let currency, let appTransactionId,
                  let quantity = Int(exactly: quantity ?? 1)
            else { return nil }
            var payload = TransactionPayload(
                originalTransactionId: originalTransactionId, transactionId: transactionId, webOrderLineItemId: webOrderLineItemId,
                bundleId: bundleId, productId: productId, subscriptionGroupIdentifier: subscriptionGroupIdentifier,
                purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate, expiresDate: expiresDate, quantity: quantity,
                type: type, appAccountToken: appAccountToken, inAppOwnershipType: ownership ?? .purchased, signedDate: signedDate ?? 0,
                revocationReason: revocationReason, revocationDate: revocationDate, isUpgraded: isUpgraded, offerType: offerType,
                offerIdentifier: offerIdentifier, environment: environment, storefront: storefront, storefrontId: storefrontId,
                transactionReason: reason ?? .purchase, currency: currency, price: price ?? 0, offerDiscountType: offerDiscountType,
                appTransactionId: appTransactionId, offerPeriod: offerPeriod, revocationType: revocationType,
                revocationPercentage: revocationPercentage.flatMap { Int(exactly: $0) })
            payload.billingPlanType = billingPlanType
            return payload
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string without escapes or control characters (anything else: give up).
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map(Value.integer)
            default: return nil
            }
        }

        mutating func literal(_ word: String) -> Bool {
            var offset = index
            for byte in word.utf8 {
                guard offset < bytes.count, bytes[offset] == byte else { return false }
                offset += 1
            }
            index = offset
            return true
        }

        /// A whole number that fits Int64, in JSON's grammar (no leading zeros, no fraction).
        mutating func integer() -> Int64? {
            var negative = false
            if take(UInt8(ascii: "-")) { negative = true }
            let start = index
            var magnitude: UInt64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                magnitude = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                return nil
            }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }
}
