import Foundation

/// A catalog product as StoreKit's `Product` shows it to one storefront: localized texts, a price
/// formatted in the storefront's currency, and the subscription's offers. The device API's
/// product listing is a list of these; the client library and the store views both build
/// StoreKit's `Product` from it, so a product reads the same in an app and on a store page.
public struct ProductListing: Codable, Sendable, Equatable {
    /// A period as unit and count (`"month"`, 1), as StoreKit's `Product.SubscriptionPeriod` takes it.
    public struct Period: Codable, Sendable, Equatable {
        /// `day`, `week`, `month` or `year`.
        public var unit: String
        /// How many units make one period (3 with `month` for a quarter).
        public var value: Int
    }
    /// One subscription offer, as StoreKit's `Product.SubscriptionOffer` shows it.
    public struct Offer: Codable, Sendable, Equatable {
        /// The offer identifier apps pass; nil for introductory offers.
        public var id: String?
        /// `introductory`, `promotional` or `winBack`: StoreKit's `OfferType` raw values.
        public var type: String
        /// `freeTrial`, `payAsYouGo` or `payUpFront`: StoreKit's `PaymentMode` raw values.
        public var paymentMode: String
        /// The exact decimal price, as text so no precision is lost; "0" for free trials.
        public var price: String
        /// `price` formatted in the storefront's currency and locale.
        public var displayPrice: String
        /// The length of one offer period.
        public var period: Period
        /// How many periods the offer lasts.
        public var periodCount: Int
    }
    /// The subscription part of a product, as StoreKit's `Product.SubscriptionInfo` shows it.
    public struct Subscription: Codable, Sendable, Equatable {
        /// The group ID the product belongs to.
        public var subscriptionGroupID: String
        /// The level in the group; 1 is the highest.
        public var groupLevel: Int
        /// The group's name, localized for the request's locale (the reference name when there is none).
        public var groupDisplayName: String
        /// The time between renewals.
        public var subscriptionPeriod: Period
        /// The introductory offer; the first of `introductoryOffers[]` in 2026 files.
        public var introductoryOffer: Offer?
        /// The promotional offers (`adHocOffers[]`), in file order.
        public var promotionalOffers: [Offer]
        /// The win-back offers, all of them, not filtered by eligibility (as StoreKit lists them).
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
        /// How often `billingPrice` is charged: one month for `MONTHLY`, the product's period otherwise.
        public var billingPeriod: Period
        /// The exact decimal price charged each billing period, as text.
        public var billingPrice: String
        /// `billingPrice` formatted in the storefront's currency and locale.
        public var billingDisplayPrice: String
        /// How long the commitment lasts: the product's period.
        public var commitmentPeriod: Period
        /// The exact decimal total of the commitment, as text.
        public var commitmentPrice: String
        /// `commitmentPrice` formatted in the storefront's currency and locale.
        public var commitmentDisplayPrice: String
        /// The introductory offers of this plan.
        public var offers: [Offer]
    }

    /// The product ID, as StoreKit's `Product.id`.
    public var id: String
    /// `Product.ProductType` raw values.
    public var type: String
    /// The localized name, or the reference name when the product has no localization.
    public var displayName: String
    /// The localized description; empty when the product has no localization.
    public var description: String
    /// The exact decimal price, as text so no precision is lost.
    public var price: String
    /// `price` formatted in the storefront's currency and locale, as StoreKit's `Product.displayPrice`.
    public var displayPrice: String
    /// ISO 4217 code of the storefront's currency ("USD").
    public var currency: String
    /// The locale prices are formatted in (the storefront's), so a client formats prices as
    /// StoreKit's `priceFormatStyle` does: currency `currency` in locale `priceLocale`.
    public var priceLocale: String
    /// Whether family members get it through Family Sharing, as StoreKit's `Product.isFamilyShareable`.
    public var isFamilyShareable: Bool
    /// Present for auto-renewable subscriptions only.
    public var subscription: Subscription?

    /// The listing of `product` for one storefront, texts picked for `locale`.
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
