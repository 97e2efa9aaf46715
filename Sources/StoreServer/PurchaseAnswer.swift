import Hummingbird
import NIOCore
import StoreEngine
import StoreModel

/// The answer of a purchase and of every purchase-like action (offer code redemption, forced
/// renewal, resolved issue, approved Ask to Buy): `PurchaseResponse` in openapi.json. Written once,
/// with `JSONWriter` from the payload bytes, since `JSONEncoder` costs more than the signature on Linux.
enum PurchaseAnswer {
    static func response(_ outcome: PurchaseOutcome) -> Response {
        var json = JSONWriter(capacity: 8192)
        json.beginObject()
        json.field("status", outcome.status.rawValue)
        json.field("signedTransaction", outcome.transaction?.jws)
        if let transaction = outcome.transaction { json.raw("transaction", transaction.payloadJSON ?? transaction.payload.jsonBytes) }
        json.field("signedRenewalInfo", outcome.renewalInfo?.jws)
        if let renewal = outcome.renewalInfo { json.raw("renewalInfo", renewal.payloadJSON ?? renewal.payload.jsonBytes) }
        json.field("pendingId", outcome.pendingId)
        json.endObject()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: json.bytes)))
    }
}
