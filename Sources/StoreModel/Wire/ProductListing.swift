import Foundation

/// A catalog product as StoreKit's `Product` shows it to one storefront: localized texts, a price
/// formatted in the storefront's currency, and the subscription's offers. The device API's
/// product listing is a list of these; the client library and the store views both build
/// StoreKit's `Product` from it, so a product reads the same in an app and on a store page.
public struct ProductListing: Codable, Sendable, Equatable {
    public struct Period: Codable, Sendable, Equatable {
        public var unit: String
        public var value: Int
    }
    public struct Offer: Codable, Sendable, Equatable {
        public var id: String?
        public var type: String
        public var paymentMode: String
        public var price: String
        public var displayPrice: String
        public var period: Period
        public var periodCount: Int
    }
    public struct Subscription: Codable, Sendable, Equatable {
        public var subscriptionGroupID: String
        public var groupLevel: Int
        public var groupDisplayName: String
        public var subscriptionPeriod: Period
        public var introductoryOffer: Offer?
        public var promotionalOffers: [Offer]
        public var winBackOffers: [Offer]
        /// The 2026 billing plans (`billingPlans[]`), as StoreKit's `SubscriptionInfo.pricingTerms`;
        /// nil from a store that predates them.
        public var pricingTerms: [PricingTerms]? = nil
    }

    /// One billing plan of a subscription: what is billed how often, and the commitment it adds
    /// up to (StoreKit's `Product.SubscriptionInfo.PricingTerms`).
    public struct PricingTerms: Codable, Sendable, Equatable {
        /// `MONTHLY` or `BILLED_UPFRONT`.
        public var billingPlanType: String
        public var billingPeriod: Period
        public var billingPrice: String
        public var billingDisplayPrice: String
        public var commitmentPeriod: Period
        public var commitmentPrice: String
        public var commitmentDisplayPrice: String
        /// The introductory offers of this plan.
        public var offers: [Offer]
    }

    public var id: String
    /// `Product.ProductType` raw values.
    public var type: String
    public var displayName: String
    public var description: String
    public var price: String
    public var displayPrice: String
    public var currency: String
    /// The locale prices are formatted in (the storefront's), so a client formats prices as
    /// StoreKit's `priceFormatStyle` does: currency `currency` in locale `priceLocale`.
    public var priceLocale: String
    public var isFamilyShareable: Bool
    public var subscription: Subscription?

    public init(_ product: CatalogProduct, catalog: Catalog, storefront: Storefront, locale: String) {
        let text = product.localization(for: locale)
        id = product.id
        type = Self.productType(product.kind)
        displayName = text?.displayName ?? product.referenceName
        description = text?.description ?? ""
        price = "\(product.price)"
        displayPrice = storefront.formatted(product.price)
        currency = storefront.currency
        priceLocale = storefront.locale
        isFamilyShareable = product.familyShareable
        subscription = product.subscription.map { info in
            Subscription(
                subscriptionGroupID: info.groupID,
                groupLevel: info.groupLevel,
                groupDisplayName: catalog.group(info.groupID)?.displayName(for: locale) ?? info.groupID,
                subscriptionPeriod: Period(info.period),
                introductoryOffer: (info.introductoryOffer ?? info.introductoryOffers.first).map { Offer($0, storefront: storefront) },
                promotionalOffers: info.promotionalOffers.map { Offer($0, storefront: storefront) },
                winBackOffers: info.winBackOffers.map { Offer($0, storefront: storefront) },
                pricingTerms: Self.pricingTerms(product, info, storefront: storefront))
        }
    }

    /// The enabled billing plans: `MONTHLY` bills its price every month over a commitment as long
    /// as the product's period (`commitmentDisplayPrice` in all); `BILLED_UPFRONT` bills the
    /// whole period at once (the product's price where the plan gives none).
    static func pricingTerms(_ product: CatalogProduct, _ info: CatalogSubscription, storefront: Storefront) -> [PricingTerms]? {
        let plans = info.billingPlans.filter(\.isEnabled)
        guard !plans.isEmpty else { return nil }
        return plans.map { plan in
            let monthly = plan.type == "MONTHLY"
            let billing = monthly ? SubscriptionPeriod(unit: .month, value: 1) : info.period
            let price = plan.price ?? product.price
            let total = plan.commitmentPrice ?? (monthly ? price * 12 : price)
            let offers = (info.introductoryOffers.isEmpty ? info.introductoryOffer.map { [$0] } ?? [] : info.introductoryOffers)
                .filter { ($0.billingPlanType ?? "BILLED_UPFRONT") == plan.type }
            return PricingTerms(
                billingPlanType: plan.type, billingPeriod: Period(billing), billingPrice: "\(price)",
                billingDisplayPrice: storefront.formatted(price), commitmentPeriod: Period(info.period),
                commitmentPrice: "\(total)", commitmentDisplayPrice: storefront.formatted(total),
                offers: offers.map { Offer($0, storefront: storefront) })
        }
    }

    static func productType(_ kind: ProductKind) -> String {
        switch kind {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .nonRenewing: "Non-Renewable"
        case .autoRenewable: "Auto-Renewable"
        }
    }
}

extension ProductListing.Period {
    init(_ period: SubscriptionPeriod) {
        self.init(unit: period.unit.rawValue, value: period.value)
    }
}

extension ProductListing.Offer {
    init(_ offer: CatalogOffer, storefront: Storefront) {
        let price = offer.price ?? 0
        let type: String = switch offer.kind {
        case .introductory: "introductory"
        case .promotional, .code: "promotional"
        case .winBack: "winBack"
        }
        let mode: String = switch offer.paymentMode {
        case .freeTrial: "freeTrial"
        case .payAsYouGo: "payAsYouGo"
        case .payUpFront: "payUpFront"
        }
        self.init(
            id: offer.id, type: type, paymentMode: mode, price: "\(price)",
            displayPrice: storefront.formatted(price), period: .init(offer.period), periodCount: offer.periodCount)
    }
}
