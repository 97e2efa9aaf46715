import Foundation
import StoreModel

/// The device API's product listing (`GET …/apps/{bundleId}/products`), as JSON: the
/// storefront and one `ProductListing` (StoreModel's wire type) per product.
package struct ProductListingJSON: Decodable, Sendable {
    package struct Front: Decodable, Sendable {
        package var countryCode: String
        package var id: String
        package var currency: String
        package var locale: String?
    }

    package var storefront: Front
    package var products: [ProductListing]
}

extension Product {
    /// A product from one item of the device API's listing.
    package init(_ item: ProductListing, storefront: ProductListingJSON.Front) throws {
        try self.init(listing: item)
    }

    /// StoreKit's `Product` from the store's listing of it: what the client decodes from the device
    /// API and what the store's own pages render, so both see the same values.
    public init(listing item: ProductListing) throws {
        guard let price = Decimal(string: item.price, locale: Locale(identifier: "en_US_POSIX")) else {
            throw OpenStoreKitError.badResponse("product \(item.id) has price \"\(item.price)\", not a decimal")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.init(
            id: item.id, type: ProductType(rawValue: item.type), displayName: item.displayName, description: item.description,
            price: price, displayPrice: item.displayPrice, isFamilyShareable: item.isFamilyShareable,
            subscription: try item.subscription.map(SubscriptionInfo.init), jsonRepresentation: (try? encoder.encode(item)) ?? Data(),
            currencyCode: item.currency, priceLocaleIdentifier: item.priceLocale)
    }
}

extension Product.SubscriptionInfo {
    init(_ wire: ProductListing.Subscription) throws {
        self.init(
            subscriptionGroupID: wire.subscriptionGroupID, groupLevel: wire.groupLevel, groupDisplayName: wire.groupDisplayName,
            subscriptionPeriod: try Product.SubscriptionPeriod(wire.subscriptionPeriod),
            introductoryOffer: try wire.introductoryOffer.map(Product.SubscriptionOffer.init),
            promotionalOffers: try wire.promotionalOffers.map(Product.SubscriptionOffer.init),
            winBackOffers: try wire.winBackOffers.map(Product.SubscriptionOffer.init),
            pricingTerms: try (wire.pricingTerms ?? []).map(PricingTerms.init))
    }
}

extension Product.SubscriptionInfo.PricingTerms {
    init(_ wire: ProductListing.PricingTerms) throws {
        func decimal(_ text: String) throws -> Decimal {
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw OpenStoreKitError.badResponse("pricing terms price \"\(text)\" is not a decimal")
            }
            return value
        }
        self.init(
            billingPlanType: Product.SubscriptionInfo.BillingPlanType(rawValue: wire.billingPlanType),
            billingPeriod: try Product.SubscriptionPeriod(wire.billingPeriod), billingPrice: try decimal(wire.billingPrice),
            billingDisplayPrice: wire.billingDisplayPrice,
            commitmentInfo: Product.SubscriptionInfo.CommitmentInfo(
                price: try decimal(wire.commitmentPrice), displayPrice: wire.commitmentDisplayPrice,
                period: try Product.SubscriptionPeriod(wire.commitmentPeriod)),
            subscriptionOffers: try wire.offers.map(Product.SubscriptionOffer.init))
    }
}

extension Product.SubscriptionPeriod {
    init(_ wire: ProductListing.Period) throws {
        guard let unit = Unit(rawValue: wire.unit), wire.value > 0 else {
            throw OpenStoreKitError.badResponse("subscription period \(wire.value) \(wire.unit) is not a period")
        }
        self.init(value: wire.value, unit: unit)
    }
}

extension Product.SubscriptionOffer {
    init(_ wire: ProductListing.Offer) throws {
        guard let price = Decimal(string: wire.price, locale: Locale(identifier: "en_US_POSIX")) else {
            throw OpenStoreKitError.badResponse("offer price \"\(wire.price)\" is not a decimal")
        }
        self.init(
            id: wire.type == "introductory" ? nil : wire.id, type: OfferType(rawValue: wire.type), price: price,
            displayPrice: wire.displayPrice, period: try Product.SubscriptionPeriod(wire.period), periodCount: wire.periodCount,
            paymentMode: PaymentMode(rawValue: wire.paymentMode))
    }
}
