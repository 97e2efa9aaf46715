import Foundation

extension Product {
    /// `Product.PurchaseResult`
    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        /// Waiting for approval (Ask to Buy) or for the customer to resolve an issue; the
        /// transaction arrives on `Transaction.updates` once it completes.
        case pending
    }

    /// `Product.PurchaseError`, with StoreKit's case names; the store's offer and quantity
    /// refusals (and simulated purchase errors) map onto them.
    public enum PurchaseError: Error, Sendable, Hashable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters

        /// The case a store error code names, if any.
        package init?(code: String) {
            switch code {
            case "invalidQuantity": self = .invalidQuantity
            case "productUnavailable": self = .productUnavailable
            case "purchaseNotAllowed": self = .purchaseNotAllowed
            case "ineligibleForOffer": self = .ineligibleForOffer
            case "invalidOfferIdentifier": self = .invalidOfferIdentifier
            case "invalidOfferPrice": self = .invalidOfferPrice
            case "invalidOfferSignature": self = .invalidOfferSignature
            case "missingOfferParameters": self = .missingOfferParameters
            default: return nil
            }
        }
    }

    /// `Product.PurchaseOption`: options for `purchase(options:)`, built with StoreKit's static
    /// functions.
    public struct PurchaseOption: Hashable, Sendable {
        package enum Kind: Hashable, Sendable {
            case appAccountToken(UUID)
            case quantity(Int)
            case promotionalOfferV1(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case promotionalOfferJWS(offerID: String, compactJWS: String)
            case winBackOffer(String)
            case simulatesAskToBuyInSandbox(Bool)
            case custom(key: String, value: CustomValue)
            case introductoryOfferEligibility(compactJWS: String)
            case billingPlanType(String)
            case onStorefrontChange(StorefrontChangeHandler)
        }
        /// `onStorefrontChange`'s closure, compared by identity so options stay `Hashable`.
        package struct StorefrontChangeHandler: Hashable, Sendable {
            let id = UUID()
            package let shouldContinuePurchase: @Sendable (Storefront) -> Bool
            package static func == (a: Self, b: Self) -> Bool { a.id == b.id }
            package func hash(into hasher: inout Hasher) { hasher.combine(id) }
        }
        package enum CustomValue: Hashable, Sendable {
            case string(String), double(Double), bool(Bool), data(Data)
        }
        package let kind: Kind
        package init(_ kind: Kind) { self.kind = kind }

        /// Stored in the transaction's `appAccountToken`.
        public static func appAccountToken(_ token: UUID) -> PurchaseOption { .init(.appAccountToken(token)) }
        /// How many to buy (consumables; 1–10).
        public static func quantity(_ quantity: Int) -> PurchaseOption { .init(.quantity(quantity)) }
        /// A promotional offer signed by your server (signature V1: ECDSA over the offer fields).
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> PurchaseOption {
            .init(.promotionalOfferV1(offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
        }
        /// A promotional offer signed by your server as a compact JWS. Returns an array, as StoreKit's does.
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
            [.init(.promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
        }
        /// `promotionalOffer(offerID:signature:)` (iOS 17.4): the V1 signature as one value.
        public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> PurchaseOption {
            .init(.promotionalOfferV1(offerID: offerID, keyID: signature.keyID, nonce: signature.nonce,
                                      signature: signature.signature, timestamp: signature.timestamp))
        }
        /// Your server's signed verdict on introductory-offer eligibility (a compact JWS made with
        /// `IntroductoryOfferEligibilitySignatureCreator`); the store verifies it with your key.
        public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
            .init(.introductoryOfferEligibility(compactJWS: compactJWS))
        }
        /// Buys a subscription on this billing plan (monthly with a 12-month commitment, or up front).
        public static func billingPlanType(_ billingPlanType: Product.SubscriptionInfo.BillingPlanType) -> PurchaseOption {
            .init(.billingPlanType(billingPlanType.rawValue))
        }
        /// Asked when the customer's storefront is no longer the one the product was listed in;
        /// false stops the purchase (`Product.PurchaseError.productUnavailable`). Default: continue.
        @preconcurrency
        public static func onStorefrontChange(shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) -> PurchaseOption {
            .init(.onStorefrontChange(StorefrontChangeHandler(shouldContinuePurchase: shouldContinuePurchase)))
        }
        /// A win-back offer the customer is eligible for.
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> PurchaseOption { .init(.winBackOffer(offer.id ?? "")) }
        /// Outside Production, makes this purchase wait for approval (true) or not (false).
        public static func simulatesAskToBuyInSandbox(_ simulatesAskToBuy: Bool) -> PurchaseOption {
            .init(.simulatesAskToBuyInSandbox(simulatesAskToBuy))
        }
        /// Custom keys are accepted and ignored, as the App Store ignores keys it does not know.
        public static func custom(key: String, value: String) -> PurchaseOption { .init(.custom(key: key, value: .string(value))) }
        /// A custom number option; accepted and ignored, like the string form.
        public static func custom(key: String, value: Double) -> PurchaseOption { .init(.custom(key: key, value: .double(value))) }
        /// A custom Boolean option; accepted and ignored, like the string form.
        public static func custom(key: String, value: Bool) -> PurchaseOption { .init(.custom(key: key, value: .bool(value))) }
        /// A custom data option; accepted and ignored, like the string form.
        public static func custom(key: String, value: Data) -> PurchaseOption { .init(.custom(key: key, value: .data(value))) }
    }
}

extension Transaction {
    /// `Transaction.RefundRequestStatus`
    public enum RefundRequestStatus: Sendable, Hashable {
        case success
        case userCancelled
    }

    /// `Transaction.RefundRequestError`
    public enum RefundRequestError: Error, Sendable, Hashable {
        case duplicateRequest
        case failed
    }
}
