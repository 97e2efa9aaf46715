import Foundation
import StoreModel

extension Product {
    /// The catalog's products as a storefront sells them, with texts for `locale` (the storefront's
    /// own locale when nil). Used by the server for live pages and by `openstore preview`.
    public static func products(of catalog: Catalog, storefront: Storefront, locale: String? = nil) -> [Product] {
        let locale = locale ?? storefront.locale
        let format = PriceFormat(currencyCode: storefront.currency, locale: storefront.locale)
        return catalog.products.map { item in
            let text = item.localization(for: locale)
            return Product(
                id: item.id, type: type(item.kind), displayName: text?.displayName ?? item.referenceName,
                description: text?.description ?? "", price: item.price, displayPrice: storefront.formatted(item.price),
                priceFormat: format, isFamilyShareable: item.familyShareable,
                subscription: item.subscription.map { info in
                    SubscriptionInfo(
                        subscriptionGroupID: info.groupID, groupLevel: info.groupLevel,
                        groupDisplayName: catalog.group(info.groupID)?.displayName(for: locale) ?? info.groupID,
                        subscriptionPeriod: SubscriptionPeriod(info.period),
                        introductoryOffer: (info.introductoryOffer ?? info.introductoryOffers.first).map { SubscriptionOffer($0, storefront) },
                        promotionalOffers: info.promotionalOffers.map { SubscriptionOffer($0, storefront) },
                        winBackOffers: info.winBackOffers.map { SubscriptionOffer($0, storefront) })
                })
        }
    }

    static func type(_ kind: ProductKind) -> ProductType {
        switch kind {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .nonRenewing: .nonRenewable
        case .autoRenewable: .autoRenewable
        }
    }
}

extension Product.SubscriptionPeriod {
    init(_ period: StoreModel.SubscriptionPeriod) {
        let unit: Unit = switch period.unit { case .day: .day; case .week: .week; case .month: .month; case .year: .year }
        self.init(value: period.value, unit: unit)
    }
}

extension Product.SubscriptionOffer {
    init(_ offer: CatalogOffer, _ storefront: Storefront) {
        let price = offer.price ?? 0
        let type: OfferType = switch offer.kind {
        case .introductory: .introductory
        case .promotional, .code: .promotional
        case .winBack: .winBack
        }
        let mode: PaymentMode = switch offer.paymentMode {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
        self.init(id: offer.id ?? offer.referenceName, type: type, price: price, displayPrice: storefront.formatted(price),
                  period: Product.SubscriptionPeriod(offer.period), periodCount: offer.periodCount, paymentMode: mode)
    }
}
