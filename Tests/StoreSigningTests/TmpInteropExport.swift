import Foundation
import Testing
@testable import StoreSigning

// TEMPORARY: manual cross-check with Apple's Python library; removed after use.
struct TmpInteropExport {
    @Test func export() throws {
        guard let dir = ProcessInfo.processInfo.environment["OSK_EXPORT_DIR"] else { return }
        let url = URL(fileURLWithPath: dir)
        let ca = try CertificateAuthority.generate()
        try Data(ca.rootDER).write(to: url.appendingPathComponent("root.der"))
        try ca.material.rootCertificatePEM.write(to: url.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try ca.material.intermediateCertificatePEM.write(to: url.appendingPathComponent("intermediate.pem"), atomically: true, encoding: .utf8)
        try ca.material.leafCertificatePEM.write(to: url.appendingPathComponent("leaf.pem"), atomically: true, encoding: .utf8)
        let signer = JWSSigner(authority: ca)
        let typed = JWSSigner(authority: ca, includeType: true)
        var out: [String: String] = [:]
        for (name, ms) in [("t2026", "1767225600000"), ("t2150", "5680281600000"), ("t2199", "7258118399000"), ("t2200", "7258118400000"), ("t1999", "946684799000")] {
            out[name] = signer.sign(payloadJSON: Array(#"{"transactionId":"1","bundleId":"com.example.app","environment":"Sandbox","signedDate":\#(ms),"productId":"a/b"}"#.utf8))
        }
        out["typed"] = typed.sign(payloadJSON: Array(#"{"bundleId":"com.example.app","environment":"Sandbox","signedDate":1767225600000}"#.utf8))
        out["renewal"] = signer.sign(payloadJSON: Array(#"{"environment":"Sandbox","signedDate":1767225600000,"originalTransactionId":"1"}"#.utf8))
        out["app"] = signer.sign(payloadJSON: Array(#"{"bundleId":"com.example.app","receiptType":"Sandbox","receiptCreationDate":1767225600000,"signedDate":1767225600000,"appAppleId":123}"#.utf8))
        out["notification"] = signer.sign(payloadJSON: Array(#"{"notificationType":"TEST","notificationUUID":"3f8b0d0e-0000-4000-8000-000000000001","data":{"bundleId":"com.example.app","environment":"Sandbox","appAppleId":123},"version":"2.0","signedDate":1767225600000}"#.utf8))
        let other = try CertificateAuthority.generate()
        out["foreign"] = JWSSigner(authority: other).sign(payloadJSON: Array(#"{"bundleId":"com.example.app","environment":"Sandbox","signedDate":1767225600000}"#.utf8))
        let key = APIKeyFactory.generate(bundleId: "com.example.app")
        out["p8"] = key.privateKeyP8
        out["keyId"] = key.key.keyId
        out["issuerId"] = key.key.issuerId
        out["publicKeyPEM"] = key.key.publicKeyPEM
        try JSONEncoder().encode(out).write(to: url.appendingPathComponent("out.json"))
    }

    @Test func importPython() throws {
        guard let dir = ProcessInfo.processInfo.environment["OSK_IMPORT_DIR"] else { return }
        let url = URL(fileURLWithPath: dir)
        let exported = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url.appendingPathComponent("out.json")))
        let py = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url.appendingPathComponent("py.json")))
        let key = APIKey(keyId: exported["keyId"]!, issuerId: exported["issuerId"]!, bundleId: "com.example.app", publicKeyPEM: exported["publicKeyPEM"]!)
        let claims = try APITokenVerifier().verify(py["token"]!, now: Date()) { $0 == key.keyId ? key : nil }
        print("PYTOKEN OK", claims)
        let ok = PromotionalOfferSignature.verify(
            signatureBase64: py["offer"]!, publicKeyPEM: key.publicKeyPEM, bundleId: "com.example.app", keyId: key.keyId,
            productId: "pro.monthly", offerId: "WINBACK", appAccountToken: "User-ABC", nonce: UUID(uuidString: py["nonce"]!)!, timestamp: Int64(py["timestamp"]!)!)
        print("PYOFFER", ok)
        #expect(ok)
    }
}
