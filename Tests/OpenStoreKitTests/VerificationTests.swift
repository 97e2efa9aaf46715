import Foundation
@testable import OpenStoreKit
import StoreKitTypes
import StoreModel
import Testing

/// Verification is local: chain to the pinned root, ES256, bundle ID and environment.
@Suite struct VerificationTests {
    @Test func tamperedForeignAndOtherAppJWSAreUnverified() async throws {
        try await ClientTestStore.with { store in
            try await ClientTestStore.with { other in
                let connection = store.connection("gus")
                let signed = try await OpenStoreKit.withConnection(connection) { () -> String in
                    let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                    let result = try await guide.purchase()
                    guard case .success(.verified(let transaction)) = result else { throw TestFailure("not verified: \(result)") }
                    return transaction.jwsRepresentation
                }
                let verifier = try await connection.verifier()

                // A payload changed after signing: the signature no longer holds.
                let parts = signed.split(separator: ".").map(String.init)
                let payloadBytes = try #require(Base64URLText.decode(parts[1][...]))
                var payload = try #require(try JSONSerialization.jsonObject(with: payloadBytes) as? [String: Any])
                payload["productId"] = "k.plus"
                let forged = parts[0] + "." + base64url(try JSONSerialization.data(withJSONObject: payload)) + "." + parts[2]
                guard case .unverified(let value, .invalidSignature) = try verifier.transaction(forged) else {
                    Issue.record("a tampered payload must be .unverified(.invalidSignature)")
                    return
                }
                #expect(value.productID == "k.plus")

                // Signed by another store (another root): the chain does not lead to the pinned root.
                let foreign = try await OpenStoreKit.withConnection(other.connection("gus")) { () -> String in
                    let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                    return try #require(transaction(of: try await guide.purchase())).jwsRepresentation
                }
                guard case .unverified(_, .invalidCertificateChain) = try verifier.transaction(foreign) else {
                    Issue.record("another store's JWS must be .unverified(.invalidCertificateChain)")
                    return
                }

                // Genuinely signed by this store, but for another app: not issued for this app.
                let otherApp = try await store.purchaseElsewhere("com.example.foodtruck.annualhistory", customer: "gus", bundle: ClientTestStore.foodTruck)
                let otherJWS = try #require(otherApp["signedTransaction"] as? String)
                guard case .unverified(_, .invalidDeviceVerification) = try verifier.transaction(otherJWS) else {
                    Issue.record("another app's JWS must be .unverified(.invalidDeviceVerification)")
                    return
                }

                // Not a JWS at all: nothing to call unverified.
                #expect(throws: LocalVerifier.Undecodable.self) { try verifier.transaction("not-a-jws") }
            }
        }
    }

    @Test func theStoresSimulatedVerificationFailureIsUnverified() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await store.admin(.PUT, "/admin/v1/worlds/\(world)/simulated-errors/verification", ["error": "invalidSignature"])
            try await OpenStoreKit.withConnection(store.connection("hal", world: world)) {
                let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                let result = try await guide.purchase()
                guard case .success(.unverified(let transaction, .invalidSignature)) = result else {
                    Issue.record("expected .unverified(.invalidSignature), got \(result)")
                    return
                }
                #expect(transaction.productID == "k.guide")
                await #expect(throws: VerificationResult<Transaction>.VerificationError.invalidSignature) {
                    _ = try await Transaction.currentEntitlement(for: "k.guide")?.payloadValue
                }
                for await entry in Transaction.all {
                    guard case .unverified(_, .invalidSignature) = entry else { Issue.record("Transaction.all must be unverified too"); return }
                }
            }
        }
    }

    @Test func aPinnedRootRefusesAnotherStore() async throws {
        try await ClientTestStore.with { store in
            try await ClientTestStore.with { other in
                let otherRoot = try await other.request(.GET, "/storekit/v1/root-certificate").body
                let ownRoot = try await store.request(.GET, "/storekit/v1/root-certificate").body
                let refusing = store.connection("ida", rootCertificate: otherRoot)
                await #expect { try await refusing.connect() } throws: { error in
                    guard case StoreKitError.systemError(let inner) = error, case OpenStoreKitError.untrustedStore = inner else { return false }
                    return true
                }
                try await store.connection("ida", rootCertificate: ownRoot).connect()
            }
        }
    }
}

func base64url(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// The client's fast payload reader agrees with StoreModel's general decoder, and gives way to it.
@Suite struct PayloadScannerTests {
    @Test func theFastReaderDecodesWhatTheGeneralDecoderDecodes() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            var payloads: [[UInt8]] = []
            let seeds = try await store.admin(.POST, ClientTestStore.api(world) + "/apps/\(ClientTestStore.bundle)/purchases",
                                              ["productId": "k.seeds", "customer": "bo", "quantity": 2, "appAccountToken": UUID().uuidString])
            let plus = try await store.purchaseElsewhere("k.plus", customer: "bo", world: world)
            let plusID = try #require((plus["transaction"] as? [String: Any])?["transactionId"] as? String)
            let refunded = try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(plusID)/refund", ["reason": 1])
            for answer in [seeds, plus, refunded] {
                let jws = try #require(answer["signedTransaction"] as? String)
                let segment = String(jws.split(separator: ".")[1])
                var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                while base64.count % 4 != 0 { base64 += "=" }
                payloads.append(Array(try #require(Data(base64Encoded: base64))))
            }
            for payload in payloads {
                let fast = try #require(TransactionPayloadScanner.decode(payload), "the fast reader gave up on \(String(decoding: payload, as: UTF8.self))")
                #expect(fast == (try TransactionPayload(json: payload)))
            }
            #expect(payloads[2].count > payloads[1].count) // the refund added revocation fields
        }
        // What it does not know, it leaves to the general decoder.
        for odd in [#"{"transactionId":"1","commitmentInfo":{"billingPeriodNumber":1}}"#, #"{"productId":"a\"b"}"#,
                    #"{"price":1.5}"#, #"{"price":null}"#, #"{"price":01}"#, "[1]", #"{"a":1"#] {
            #expect(TransactionPayloadScanner.decode(Array(odd.utf8)) == nil)
        }
    }
}
