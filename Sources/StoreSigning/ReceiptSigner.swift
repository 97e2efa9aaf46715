import Crypto
import Foundation
@_spi(CMS) import X509

/// App receipts: the receipt's ASN.1 payload (a SET of `ReceiptAttribute ::= SEQUENCE { type
/// INTEGER, version INTEGER, value OCTET STRING }`, Apple's documented layout) in a PKCS#7 / CMS
/// SignedData container signed by the store's certificate authority, content attached, as a device
/// holds it. `verify` checks a receipt the way `/verifyReceipt` must: the signature chains to the
/// store's root, then the payload is read back.
public enum ReceiptSigner {
    /// Why a receipt was refused: broken bytes versus a signature this store did not make.
    public enum Failure: Error, Sendable, Equatable {
        /// Not base64, not PKCS#7 SignedData, or a payload that is not the receipt layout.
        case malformed(String)
        /// Well-formed, but the signature does not hold or does not chain to this store's root.
        case notAuthentic(String)
    }

    /// The receipt, DER-encoded and signed (the bytes of the receipt file).
    public static func sign(_ receipt: AppReceipt, authority: CertificateAuthority) throws -> [UInt8] {
        try CMS.sign(
            payload(receipt), additionalIntermediateCertificates: [authority.intermediateCertificate],
            certificate: authority.leafCertificate, privateKey: Certificate.PrivateKey(authority.leafPrivateKey),
            detached: false)
    }

    /// Checks the signature against `root` and reads the receipt.
    public static func verify(_ bytes: [UInt8], root: Certificate, at date: Date) async throws(Failure) -> AppReceipt {
        let content = try signedContent(bytes)
        let result = await CMS.isValidAttachedSignature(signatureBytes: bytes, trustRoots: CertificateStore([root])) {
            RFC5280Policy(validationTime: date)
        }
        if case .failure(let error) = result { throw .notAuthentic(String(describing: error)) }
        return try read(content)
    }

    // MARK: Payload

    /// The DER payload: a SET OF receipt attributes, in DER order.
    public static func payload(_ receipt: AppReceipt) -> [UInt8] {
        var attributes = [
            attribute(AppReceipt.Field.bundleId, ReceiptDER.utf8(receipt.bundleId)),
            attribute(AppReceipt.Field.applicationVersion, ReceiptDER.utf8(receipt.applicationVersion)),
            attribute(AppReceipt.Field.opaqueValue, Array(SHA256.hash(data: Array(receipt.bundleId.utf8)).prefix(16))),
            attribute(AppReceipt.Field.creationDate, ReceiptDER.ia5(rfc3339(receipt.creationDate))),
            attribute(AppReceipt.Field.originalApplicationVersion, ReceiptDER.utf8(receipt.originalApplicationVersion)),
        ]
        for purchase in receipt.inApp {
            var fields = [
                attribute(InAppReceipt.Field.quantity, ReceiptDER.integer(Int64(purchase.quantity))),
                attribute(InAppReceipt.Field.productId, ReceiptDER.utf8(purchase.productId)),
                attribute(InAppReceipt.Field.transactionId, ReceiptDER.utf8(purchase.transactionId)),
                attribute(InAppReceipt.Field.purchaseDate, ReceiptDER.ia5(rfc3339(purchase.purchaseDate))),
                attribute(InAppReceipt.Field.originalTransactionId, ReceiptDER.utf8(purchase.originalTransactionId)),
                attribute(InAppReceipt.Field.originalPurchaseDate, ReceiptDER.ia5(rfc3339(purchase.originalPurchaseDate))),
            ]
            if let expires = purchase.expiresDate { fields.append(attribute(InAppReceipt.Field.expiresDate, ReceiptDER.ia5(rfc3339(expires)))) }
            if let line = purchase.webOrderLineItemId { fields.append(attribute(InAppReceipt.Field.webOrderLineItemId, ReceiptDER.integer(line))) }
            if let cancelled = purchase.cancellationDate {
                fields.append(attribute(InAppReceipt.Field.cancellationDate, ReceiptDER.ia5(rfc3339(cancelled))))
            }
            attributes.append(attribute(AppReceipt.Field.inAppPurchase, ReceiptDER.setOf(fields)))
        }
        return ReceiptDER.setOf(attributes)
    }

    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        ReceiptDER.tlv(0x30, ReceiptDER.integer(Int64(type)) + ReceiptDER.integer(1) + ReceiptDER.tlv(0x04, value))
    }

    /// The attached content of a PKCS#7 SignedData: ContentInfo → [0] SignedData → encapContentInfo → [0] OCTET STRING.
    static func signedContent(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard let contentInfo = ReceiptDER.read(bytes[...]), contentInfo.tag == 0x30,
              let parts = ReceiptDER.children(contentInfo.value), parts.count == 2, parts[0].tag == 0x06,
              Array(parts[0].value) == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02],  // 1.2.840.113549.1.7.2
              parts[1].tag == 0xA0, let signedData = ReceiptDER.children(parts[1].value)?.first, signedData.tag == 0x30,
              let fields = ReceiptDER.children(signedData.value), fields.count >= 4, fields[2].tag == 0x30,
              let encapsulated = ReceiptDER.children(fields[2].value), encapsulated.count == 2, encapsulated[1].tag == 0xA0,
              let content = ReceiptDER.children(encapsulated[1].value)?.first, content.tag == 0x04
        else { throw .malformed("not a PKCS#7 SignedData with attached content") }
        return Array(content.value)
    }

    /// Reads the receipt attributes back (types it does not know are ignored, as Apple asks of apps).
    public static func read(_ payload: [UInt8]) throws(Failure) -> AppReceipt {
        guard let set = ReceiptDER.read(payload[...]), set.tag == 0x31, let items = attributes(set.value) else {
            throw .malformed("the receipt payload is not a SET of receipt attributes")
        }
        var receipt = AppReceipt(bundleId: "", applicationVersion: "", originalApplicationVersion: "", creationDate: 0, inApp: [])
        for (type, value) in items {
            switch type {
            case AppReceipt.Field.bundleId: receipt.bundleId = ReceiptDER.string(value) ?? ""
            case AppReceipt.Field.applicationVersion: receipt.applicationVersion = ReceiptDER.string(value) ?? ""
            case AppReceipt.Field.originalApplicationVersion: receipt.originalApplicationVersion = ReceiptDER.string(value) ?? ""
            case AppReceipt.Field.creationDate: receipt.creationDate = ReceiptDER.string(value).flatMap(milliseconds) ?? 0
            case AppReceipt.Field.inAppPurchase:
                guard let inner = ReceiptDER.read(value), inner.tag == 0x31, let fields = attributes(inner.value) else {
                    throw .malformed("an in-app purchase (type 17) is not a SET of attributes")
                }
                var purchase = InAppReceipt(quantity: 1, productId: "", transactionId: "", originalTransactionId: "", purchaseDate: 0, originalPurchaseDate: 0)
                for (field, value) in fields {
                    switch field {
                    case InAppReceipt.Field.quantity: purchase.quantity = Int(ReceiptDER.integerValue(value) ?? 1)
                    case InAppReceipt.Field.productId: purchase.productId = ReceiptDER.string(value) ?? ""
                    case InAppReceipt.Field.transactionId: purchase.transactionId = ReceiptDER.string(value) ?? ""
                    case InAppReceipt.Field.originalTransactionId: purchase.originalTransactionId = ReceiptDER.string(value) ?? ""
                    case InAppReceipt.Field.purchaseDate: purchase.purchaseDate = ReceiptDER.string(value).flatMap(milliseconds) ?? 0
                    case InAppReceipt.Field.originalPurchaseDate: purchase.originalPurchaseDate = ReceiptDER.string(value).flatMap(milliseconds) ?? 0
                    case InAppReceipt.Field.expiresDate: purchase.expiresDate = ReceiptDER.string(value).flatMap(milliseconds)
                    case InAppReceipt.Field.webOrderLineItemId: purchase.webOrderLineItemId = ReceiptDER.integerValue(value)
                    case InAppReceipt.Field.cancellationDate: purchase.cancellationDate = ReceiptDER.string(value).flatMap(milliseconds)
                    default: break
                    }
                }
                receipt.inApp.append(purchase)
            default: break
            }
        }
        guard !receipt.bundleId.isEmpty else { throw .malformed("the receipt has no bundle identifier (type 2)") }
        return receipt
    }

    private static func attributes(_ bytes: ArraySlice<UInt8>) -> [(Int, ArraySlice<UInt8>)]? {
        guard let items = ReceiptDER.children(bytes) else { return nil }
        var result: [(Int, ArraySlice<UInt8>)] = []
        for item in items {
            guard item.tag == 0x30, let parts = ReceiptDER.children(item.value), parts.count == 3, parts[0].tag == 0x02,
                  let type = ReceiptDER.integerValue(parts[0].value), parts[2].tag == 0x04 else { return nil }
            result.append((Int(type), parts[2].value))
        }
        return result
    }

    static func rfc3339(_ ms: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    static func milliseconds(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}

/// The few DER shapes a receipt needs (X.690), written and read with bounds checks.
enum ReceiptDER {
    struct Element {
        var tag: UInt8
        var value: ArraySlice<UInt8>
        var rest: ArraySlice<UInt8>
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var n = content.count
            while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    static func integer(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1, (bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }

    /// A SET OF: DER sorts the encoded elements.
    static func setOf(_ elements: [[UInt8]]) -> [UInt8] {
        tlv(0x31, elements.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// One element at the start of `bytes` (definite lengths only, as DER has).
    static func read(_ bytes: ArraySlice<UInt8>) -> Element? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, bytes.endIndex - index >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard length >= 0, bytes.endIndex - index >= length else { return nil }
        return Element(tag: tag, value: bytes[index..<(index + length)], rest: bytes[(index + length)...])
    }

    /// Every element inside a constructed value; nil if any is malformed.
    static func children(_ bytes: ArraySlice<UInt8>) -> [Element]? {
        var elements: [Element] = []
        var rest = bytes
        while !rest.isEmpty {
            guard let element = read(rest) else { return nil }
            elements.append(element)
            rest = element.rest
        }
        return elements
    }

    static func integerValue(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let content: ArraySlice<UInt8>
        if let element = read(bytes), element.tag == 0x02, element.rest.isEmpty { content = element.value } else { content = bytes }
        guard !content.isEmpty, content.count <= 8 else { return nil }
        var value: Int64 = content.first! & 0x80 != 0 ? -1 : 0
        for byte in content { value = value << 8 | Int64(byte) }
        return value
    }

    /// The text of a UTF8String or IA5String element.
    static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let element = read(bytes), element.tag == 0x0C || element.tag == 0x16 else { return nil }
        return String(validating: element.value, as: UTF8.self)
    }
}
