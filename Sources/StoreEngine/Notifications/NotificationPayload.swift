import StoreModel
import StoreSigning
import StoreStorage

/// Builds and signs `ResponseBodyV2DecodedPayload` (reference §4.3) from an outbox row. The row
/// keeps the content unsigned; every delivery and every history read signs the same content, so
/// the `notificationUUID`, `signedDate` and nested payloads never change.
public enum NotificationPayload {
    /// The `data` object without its signed members, as the outbox stores it.
    static func dataBody(app: StoreApp, bundleVersion: String?, status: Int?, consumptionRequestReason: String?) -> String {
        var json = JSONWriter(capacity: 192)
        json.beginObject()
        json.field("appAppleId", app.appAppleId)
        json.field("bundleId", app.bundleId)
        json.field("bundleVersion", bundleVersion)
        json.field("environment", app.environment.rawValue)
        json.field("status", status)
        json.field("consumptionRequestReason", consumptionRequestReason)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The app's identity: a TEST notification's `data`, and `appData` (RESCIND_CONSENT) without
    /// its `signedAppTransactionInfo`.
    static func appDataBody(app: StoreApp) -> String {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.field("appAppleId", app.appAppleId)
        json.field("bundleId", app.bundleId)
        json.field("environment", app.environment.rawValue)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `summary` of a mass renewal-date extension, from the event's recorded counts.
    static func summaryBody(app: StoreApp, eventData: String?) -> String {
        let fields = eventData.flatMap { try? WireObject(json: Array($0.utf8)) }
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.field("environment", app.environment.rawValue)
        json.field("appAppleId", app.appAppleId)
        json.field("bundleId", app.bundleId)
        json.field("productId", fields?.string("productId"))
        json.field("requestIdentifier", fields?.string("requestIdentifier"))
        json.field("storefrontCountryCodes", fields?.strings("storefrontCountryCodes"))
        json.field("succeededCount", fields?.int64("succeededCount") ?? 0)
        json.field("failedCount", fields?.int64("failedCount") ?? 0)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The decoded payload as JSON, its nested transaction and renewal info signed now.
    static func json(of record: NotificationRecord, signer: JWSSigner) -> [UInt8] {
        var body = Array(record.body.utf8)
        if record.transactionJSON != nil || record.renewalJSON != nil, body.last == UInt8(ascii: "}") {
            body.removeLast()
            var needsComma = body.count > 1
            func append(_ key: String, _ jws: String) {
                if needsComma { body.append(UInt8(ascii: ",")) }
                needsComma = true
                body.append(contentsOf: "\"\(key)\":\"".utf8)
                body.append(contentsOf: jws.utf8)
                body.append(UInt8(ascii: "\""))
            }
            if let transaction = record.transactionJSON {
                // `appData` nests the app transaction; `data` a transaction.
                let key = record.bodyKey == "appData" ? "signedAppTransactionInfo" : "signedTransactionInfo"
                append(key, signer.sign(payloadJSON: Array(transaction.utf8)))
            }
            if let renewal = record.renewalJSON {
                append("signedRenewalInfo", signer.sign(payloadJSON: Array(renewal.utf8)))
            }
            body.append(UInt8(ascii: "}"))
        }
        var json = JSONWriter(capacity: body.count + 256)
        json.beginObject()
        json.field("notificationType", record.type)
        json.field("subtype", record.subtype)
        json.field("notificationUUID", record.uuid)
        json.raw(record.bodyKey, body)
        json.field("version", "2.0")
        json.field("signedDate", record.signedMs)
        json.endObject()
        return json.bytes
    }

    /// The `signedPayload`: the notification as a JWS signed by the store's chain.
    static func sign(_ record: NotificationRecord, signer: JWSSigner) -> String {
        signer.sign(payloadJSON: json(of: record, signer: signer))
    }

    /// `{"signedPayload":"…"}`: the body POSTed to the app's server (`responseBodyV2`).
    public static func requestBody(signedPayload: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(signedPayload.utf8.count + 20)
        out.append(contentsOf: "{\"signedPayload\":\"".utf8)
        out.append(contentsOf: signedPayload.utf8)
        out.append(contentsOf: "\"}".utf8)
        return out
    }

    /// One `sendAttempts` item appended to the stored JSON array.
    public static func appendingAttempt(_ attempts: String, dateMs: Int64, result: String) -> String {
        let item = "{\"attemptDate\":\(dateMs),\"sendAttemptResult\":\"\(result)\"}"
        guard attempts.count > 2 else { return "[\(item)]" }
        return String(attempts.dropLast()) + "," + item + "]"
    }
}
