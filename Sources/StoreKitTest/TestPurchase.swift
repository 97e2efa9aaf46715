import Foundation
import OpenStoreKit
import StoreEngine
import StoreModel

/// `buyProduct`'s options as the engine's purchase request and offer.
struct TestPurchase: Sendable {
    var productId: String
    var quantity = 1
    var appAccountToken: String?
    var simulatesAskToBuy: Bool?
    var offer: PurchaseOfferRequest?
    var introductoryOfferEligibilityJWS: String?
    var billingPlanType: String?
    var purchaseDateMs: Int64?
    var cancelsAfterFirstPeriod = false

    init(_ options: Set<Product.PurchaseOption>, productId: String, catalog: Catalog) throws {
        guard catalog.products.contains(where: { $0.id == productId }) else {
            throw SKTestError(.invalidProductIdentifier, "no product \(productId) in the session's configuration file "
                + "(it has \(catalog.products.map(\.id).sorted().joined(separator: ", ")))")
        }
        self.productId = productId
        var offers: [PurchaseOfferRequest] = []
        for option in options {
            switch option.kind {
            case .quantity(let count): quantity = count
            case .appAccountToken(let token): appAccountToken = token.uuidString.lowercased()
            case .simulatesAskToBuyInSandbox(let value): simulatesAskToBuy = value
            case .winBackOffer(let id): offers.append(.winBack(offerId: id))
            case .promotionalOfferJWS(_, let jws): offers.append(.promotionalJWS(jws))
            case .promotionalOfferV1(let offerID, let keyID, let nonce, let signature, let timestamp):
                offers.append(.promotional(.init(offerID: offerID, keyID: keyID, nonce: nonce.uuidString.lowercased(),
                                                 signature: signature.base64EncodedString(), timestamp: Int64(timestamp))))
            case .custom(let key, .string(let value)) where key == TestingOptionKey.promotionalOffer:
                offers.append(.promotionalTesting(offerId: value))
            case .custom(let key, .string(let value)) where key == TestingOptionKey.codeOffer:
                offers.append(.codeTesting(referenceName: value))
            case .custom(let key, .double(let ms)) where key == TestingOptionKey.purchaseDate || key == TestingOptionKey.purchaseDateCancelling:
                purchaseDateMs = Int64(ms)
                cancelsAfterFirstPeriod = key == TestingOptionKey.purchaseDateCancelling
            case .introductoryOfferEligibility(let jws): introductoryOfferEligibilityJWS = jws
            case .billingPlanType(let type): billingPlanType = type
            case .onStorefrontChange: break  // the session's storefront does not change during buyProduct
            case .custom: break
            }
        }
        guard offers.count <= 1 else { throw SKTestError(.invalidAction, "a purchase takes at most one offer") }
        offer = offers.first
    }

    func request(customer: String) -> PurchaseRequest {
        var request = PurchaseRequest(bundleId: HostedStore.bundleID, productId: productId, customer: customer, quantity: quantity,
                                      appAccountToken: appAccountToken, simulatesAskToBuy: simulatesAskToBuy)
        request.introductoryOfferEligibilityJWS = introductoryOfferEligibilityJWS
        request.billingPlanType = billingPlanType
        request.purchaseDateMs = purchaseDateMs
        request.cancelsAfterFirstPeriod = cancelsAfterFirstPeriod
        return request
    }
}
