import Foundation
import OpenStoreKit
import Testing

/// `purchase(options:)`, the transaction it returns, and the look-ups around it.
@Suite struct PurchaseTests {
    @Test func purchaseReturnsAVerifiedTransactionWithEverySignedField() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("cal")) {
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                let token = UUID()
                let result = try await seeds.purchase(options: [.quantity(3), .appAccountToken(token), .custom(key: "note", value: "hi")])
                guard case .success(let verification) = result, case .verified(let transaction) = verification else {
                    Issue.record("expected a verified purchase, got \(result)")
                    return
                }
                #expect(transaction.productID == "k.seeds" && transaction.productType == .consumable)
                #expect(transaction.purchasedQuantity == 3)
                #expect(transaction.appAccountToken == token)
                #expect(transaction.id == transaction.originalID && transaction.id >= 2_000_000_000_000_001)
                #expect(transaction.appBundleID == ClientTestStore.bundle)
                #expect(transaction.price == Decimal(string: "0.99")) // the unit price; the quantity is apart
                #expect(transaction.currency == Locale.Currency("USD"))
                #expect(transaction.storefront.countryCode == "USA" && transaction.storefront.id == "143441")
                #expect(transaction.environment == .sandbox && transaction.reason == .purchase)
                #expect(transaction.ownershipType == .purchased && !transaction.isUpgraded)
                #expect(transaction.revocationDate == nil && transaction.revocationReason == nil && transaction.expirationDate == nil)
                #expect(transaction.subscriptionGroupID == nil && transaction.offer == nil)
                #expect(!transaction.appTransactionID.isEmpty)
                #expect(transaction.purchaseDate == transaction.originalPurchaseDate)
                #expect(transaction.signedDate >= transaction.purchaseDate)

                // VerificationResult's views of the JWS.
                #expect(verification.jwsRepresentation.split(separator: ".").count == 3)
                let header = try #require(try JSONSerialization.jsonObject(with: verification.headerData) as? [String: Any])
                #expect(header["alg"] as? String == "ES256" && (header["x5c"] as? [String])?.count == 3)
                #expect(verification.payloadData == transaction.jsonRepresentation)
                #expect(verification.signatureData.count == 64)
                #expect(String(decoding: verification.signedData, as: UTF8.self) == verification.jwsRepresentation.split(separator: ".").prefix(2).joined(separator: "."))
                let payload = try #require(try JSONSerialization.jsonObject(with: transaction.jsonRepresentation) as? [String: Any])
                #expect(payload["transactionId"] as? String == String(transaction.id))
                #expect(try verification.payloadValue == transaction)

                // Unfinished until finished; consumables leave `all` once finished.
                #expect(await ids(Transaction.unfinished) == [transaction.id])
                await transaction.finish()
                #expect(await ids(Transaction.unfinished) == [])
            }
        }
    }

    @Test func entitlementsAllAndLatest() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("dan")) {
                let products = try await Product.products(for: ["k.guide", "k.plus"])
                let guide = try #require(products.first { $0.id == "k.guide" })
                let plus = try #require(products.first { $0.id == "k.plus" })
                #expect(await guide.currentEntitlement == nil)
                #expect(await guide.latestTransaction == nil)
                let bought = try #require(try await transaction(of: guide.purchase()))
                let subscribed = try #require(try await transaction(of: plus.purchase()))
                #expect(subscribed.expirationDate != nil && subscribed.subscriptionGroupID == "KG")
                #expect(try await guide.currentEntitlement?.payloadValue.id == bought.id)
                #expect(try await guide.latestTransaction?.payloadValue.id == bought.id)
                #expect(try await Transaction.currentEntitlement(for: "k.plus")?.payloadValue.id == subscribed.id)
                #expect(try await Transaction.latest(for: "k.plus")?.payloadValue.id == subscribed.id)
                #expect(await ids(guide.currentEntitlements) == [bought.id])
                #expect(await ids(Transaction.all(for: "k.guide")) == [bought.id])
                #expect(await ids(Transaction.currentEntitlements).sorted() == [bought.id, subscribed.id].sorted())
                #expect(await ids(Transaction.all).sorted() == [bought.id, subscribed.id].sorted())
                try await AppStore.sync()
            }
        }
    }

    @Test func purchaseOptionsReachTheStore() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("eve", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                // Ask to Buy for this purchase only.
                #expect(try await isPending(plus.purchase(options: [.simulatesAskToBuyInSandbox(true)])))
                // A promotional offer signed (V1) by the developer's server, after the first subscription lapsed.
                let first = try #require(try await transaction(of: plus.purchase(options: [.simulatesAskToBuyInSandbox(false)])))
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(first.id)/expire")
                let signed = try await store.promotionalOfferV1(product: "k.plus", offer: "promo", world: world)
                let promoted = try #require(try await transaction(of: plus.purchase(options: [
                    .promotionalOffer(offerID: "promo", keyID: signed.keyID, nonce: signed.nonce, signature: signed.signature, timestamp: signed.timestamp),
                ])))
                #expect(promoted.offer?.type == .promotional && promoted.offer?.id == "promo")
                #expect(promoted.offer?.paymentMode == .payAsYouGo)
                // A win-back offer, once that subscription lapsed too.
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(promoted.id)/expire")
                let winBack = try #require(plus.subscription?.winBackOffers.first)
                let welcomed = try #require(try await transaction(of: plus.purchase(options: [.winBackOffer(winBack)])))
                #expect(welcomed.offer?.type == .winBack && welcomed.offer?.id == "back")
                // A JWS offer signature that is not one: StoreKit's error name.
                await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                    _ = try await plus.purchase(options: Set(Product.PurchaseOption.promotionalOffer("promo", compactJWS: "a.b.c")))
                }
                // Quantity out of range.
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                await #expect(throws: Product.PurchaseError.invalidQuantity) { _ = try await seeds.purchase(options: [.quantity(0)]) }
            }
        }
    }

    @Test func simulatedErrorsMapToStoreKitsCases() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            func simulate(_ api: String, _ error: String?) async throws {
                let path = "/admin/v1/worlds/\(world)/simulated-errors/\(api)"
                if let error { try await store.admin(.PUT, path, ["error": error]) } else { try await store.admin(.DELETE, path) }
            }
            try await OpenStoreKit.withConnection(store.connection("fay", world: world)) {
                try await simulate("load-products", "networkError")
                await #expect { _ = try await Product.products(for: ["k.seeds"]) } throws: { error in
                    guard case StoreKitError.networkError = error else { return false }
                    return true
                }
                try await simulate("load-products", "notAvailableInStorefront")
                await #expect { _ = try await Product.products(for: ["k.seeds"]) } throws: { error in
                    guard case StoreKitError.notAvailableInStorefront = error else { return false }
                    return true
                }
                try await simulate("load-products", nil)
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)

                try await simulate("purchase", "purchaseNotAllowed")
                await #expect(throws: Product.PurchaseError.purchaseNotAllowed) { _ = try await seeds.purchase() }
                try await simulate("purchase", "userCancelled")
                guard case .userCancelled = try await seeds.purchase() else { Issue.record("expected .userCancelled"); return }
                try await simulate("purchase", "unknown")
                await #expect { _ = try await seeds.purchase() } throws: { error in
                    guard case StoreKitError.unknown = error else { return false }
                    return true
                }
                try await simulate("purchase", nil)

                try await simulate("subscription-status", "notEntitled")
                await #expect { _ = try await Product.SubscriptionInfo.status(for: "KG") } throws: { error in
                    guard case StoreKitError.notEntitled = error else { return false }
                    return true
                }
                try await simulate("app-transaction", "unknown")
                await #expect { _ = try await AppTransaction.refresh() } throws: { error in
                    guard case StoreKitError.unknown = error else { return false }
                    return true
                }
                try await simulate("app-store-sync", "networkError")
                await #expect { try await AppStore.sync() } throws: { error in
                    guard case StoreKitError.networkError = error else { return false }
                    return true
                }
                try await simulate("manage-subscriptions-sheet", "unknown")
                await #expect { try await AppStore.showManageSubscriptions() } throws: { error in
                    guard case StoreKitError.unknown = error else { return false }
                    return true
                }
                try await simulate("refund-request-sheet", "duplicateRequest")
                let bought = try #require(try await transaction(of: seeds.purchase()))
                await #expect(throws: Transaction.RefundRequestError.duplicateRequest) { _ = try await bought.beginRefundRequest() }
            }
        }
    }
}

/// The transaction of a successful purchase (verified or not), nil otherwise.
func transaction(of result: Product.PurchaseResult) -> Transaction? {
    if case .success(let verification) = result { return verification.unsafePayloadValue }
    return nil
}

func isPending(_ result: Product.PurchaseResult) -> Bool {
    if case .pending = result { return true }
    return false
}

func ids(_ sequence: Transaction.Transactions) async -> [UInt64] {
    var ids: [UInt64] = []
    for await result in sequence { ids.append(result.unsafePayloadValue.id) }
    return ids
}
