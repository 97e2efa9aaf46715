import Foundation

/// The device API's product listing (`GET …/apps/{bundleId}/products`), as JSON.
package struct ProductListingJSON: Decodable, Sendable {
    package struct Front: Decodable, Sendable {
        package var countryCode: String
        package var id: String
        package var currency: String
        package var locale: String?
    }
    package struct Period: Codable, Sendable {
        package var unit: String
        package var value: Int
    }
    package struct Offer: Codable, Sendable {
        package var id: String?
        package var type: String
        package var paymentMode: String
        package var price: String
        package var displayPrice: String
        package var period: Period
        package var periodCount: Int
    }
    package struct Subscription: Codable, Sendable {
        package var subscriptionGroupID: String
        package var groupLevel: Int
        package var groupDisplayName: String
        package var subscriptionPeriod: Period
        package var introductoryOffer: Offer?
        package var promotionalOffers: [Offer]
        package var winBackOffers: [Offer]
    }
    package struct Item: Codable, Sendable {
        package var id: String
        package var type: String
        package var displayName: String
        package var description: String
        package var price: String
        package var displayPrice: String
        package var currency: String
        package var priceLocale: String?
        package var isFamilyShareable: Bool
        package var subscription: Subscription?
    }

    package var storefront: Front
    package var products: [Item]
}

extension Product {
    /// A product from one item of the listing. `priceLocale` falls back to the storefront's.
    package init(_ item: ProductListingJSON.Item, storefront: ProductListingJSON.Front) throws {
        guard let price = Decimal(string: item.price, locale: Locale(identifier: "en_US_POSIX")) else {
            throw OpenStoreKitError.badResponse("product \(item.id) has price \"\(item.price)\", not a decimal")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.init(
            id: item.id, type: ProductType(rawValue: item.type), displayName: item.displayName, description: item.description,
            price: price, displayPrice: item.displayPrice, isFamilyShareable: item.isFamilyShareable,
            subscription: try item.subscription.map(SubscriptionInfo.init), jsonRepresentation: (try? encoder.encode(item)) ?? Data(),
            currencyCode: item.currency, priceLocaleIdentifier: item.priceLocale ?? storefront.locale ?? "en_US")
    }
}

extension Product.SubscriptionInfo {
    init(_ wire: ProductListingJSON.Subscription) throws {
        self.init(
            subscriptionGroupID: wire.subscriptionGroupID, groupLevel: wire.groupLevel, groupDisplayName: wire.groupDisplayName,
            subscriptionPeriod: try Product.SubscriptionPeriod(wire.subscriptionPeriod),
            introductoryOffer: try wire.introductoryOffer.map(Product.SubscriptionOffer.init),
            promotionalOffers: try wire.promotionalOffers.map(Product.SubscriptionOffer.init),
            winBackOffers: try wire.winBackOffers.map(Product.SubscriptionOffer.init))
    }
}

extension Product.SubscriptionPeriod {
    init(_ wire: ProductListingJSON.Period) throws {
        guard let unit = Unit(rawValue: wire.unit), wire.value > 0 else {
            throw OpenStoreKitError.badResponse("subscription period \(wire.value) \(wire.unit) is not a period")
        }
        self.init(value: wire.value, unit: unit)
    }
}

extension Product.SubscriptionOffer {
    init(_ wire: ProductListingJSON.Offer) throws {
        guard let price = Decimal(string: wire.price, locale: Locale(identifier: "en_US_POSIX")) else {
            throw OpenStoreKitError.badResponse("offer price \"\(wire.price)\" is not a decimal")
        }
        self.init(
            id: wire.type == "introductory" ? nil : wire.id, type: OfferType(rawValue: wire.type), price: price,
            displayPrice: wire.displayPrice, period: try Product.SubscriptionPeriod(wire.period), periodCount: wire.periodCount,
            paymentMode: PaymentMode(rawValue: wire.paymentMode))
    }
}
