import Crypto
import Foundation
import StoreModel
import StoreSigning

/// Our JWS signing and verification next to the bare P-256 operations they are built on.
///
/// Raw ECDSA over the same payload bytes is the physical limit: a JWS sign is that plus base64url
/// and hashing the payload, a JWS verify is that plus splitting, decoding and the (cached) chain
/// check. One thread, so the figures are per core.
struct SigningBenchmark {
    var meter: RateMeter

    struct Figures {
        var payloadBytes: Int
        var jwsBytes: Int
        var rawSign: Double
        var jwsSign: Double
        var rawVerify: Double
        var jwsVerify: Double
    }

    func run() throws -> Figures {
        let authority = try CertificateAuthority.generate()
        let signer = JWSSigner(authority: authority)
        let verifier = try JWSVerifier(rootCertificateDER: authority.rootDER)
        let key = authority.leafPrivateKey
        let publicKey = key.publicKey

        let payload = Self.payloadJSON()
        let rawSignature = try key.signature(for: payload)
        let jws = signer.sign(payloadJSON: payload)
        guard publicKey.isValidSignature(rawSignature, for: payload), (try? verifier.verify(jws)) != nil else {
            throw BenchError("signatures made for the benchmark do not verify")
        }

        let signing = meter.measure([
            .init(name: "raw sign") { (try? key.signature(for: payload))?.rawRepresentation.count ?? 0 },
            .init(name: "JWS sign") { signer.sign(payloadJSON: payload).utf8.count },
        ])
        let verifying = meter.measure([
            .init(name: "raw verify") { publicKey.isValidSignature(rawSignature, for: payload) ? 1 : 0 },
            .init(name: "JWS verify") { (try? verifier.verify(jws))?.count ?? 0 },
        ])
        return Figures(
            payloadBytes: payload.count, jwsBytes: jws.utf8.count,
            rawSign: signing[0], jwsSign: signing[1], rawVerify: verifying[0], jwsVerify: verifying[1])
    }

    /// A consumable's transaction as the store signs it (encoded the way `AppStore` encodes it).
    static func payloadJSON() -> [UInt8] {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let payload = TransactionPayload(
            originalTransactionId: "2000000000123456", transactionId: "2000000000123456",
            bundleId: "com.example.backyardbirds", productId: "com.example.backyardbirds.sunflowerseeds",
            purchaseDate: now, originalPurchaseDate: now, quantity: 1, type: .consumable,
            appAccountToken: "7f2c3a9e-5b1d-4e8f-9a6c-2d4b8e1f3c5a", inAppOwnershipType: .purchased,
            signedDate: now, environment: .sandbox, storefront: "USA", storefrontId: "143441",
            transactionReason: .purchase, currency: "USD", price: 1990, appTransactionId: "2000000000000042")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array((try? encoder.encode(payload)) ?? Data())
    }
}
