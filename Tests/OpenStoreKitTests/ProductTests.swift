import Foundation
import OpenStoreKit
import Testing

/// `Product`: what `products(for:)` gives, formatted for the customer's storefront.
@Suite struct ProductTests {
    @Test func productsCarryStoreKitsFieldsAndUnknownIDsAreLeftOut() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("ann")) {
                let products = try await Product.products(for: ["k.seeds", "k.guide", "k.plus", "k.nothing"])
                #expect(products.map(\.id).sorted() == ["k.guide", "k.plus", "k.seeds"])
                let guide = try #require(products.first { $0.id == "k.guide" })
                #expect(guide.type == .nonConsumable)
                #expect(guide.displayName == "Guide" && guide.description == "A field guide")
                #expect(guide.price == Decimal(string: "4.99"))
                #expect(guide.displayPrice == "$4.99")
                #expect(guide.isFamilyShareable)
                #expect(guide.subscription == nil)
                let json = try #require(try JSONSerialization.jsonObject(with: guide.jsonRepresentation) as? [String: Any])
                #expect(json["id"] as? String == "k.guide" && json["displayPrice"] as? String == "$4.99")
                #expect(try #require(products.first { $0.id == "k.seeds" }).type == .consumable)
            }
        }
    }

    @Test func priceFormatStyleIsTheStorefrontsCurrencyAndLocale() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("zoe", storefront: "FRA")) {
                let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                #expect(guide.currencyCode == "EUR")
                #expect(guide.priceLocaleIdentifier == "fr_FR")
                #expect(guide.displayPrice == "4,99\u{A0}€")
                // The style formats any amount as the store formats prices (up to ICU's choice of no-break space).
                let formatted = guide.price.formatted(guide.priceFormatStyle).replacingOccurrences(of: "\u{202F}", with: "\u{A0}")
                #expect(formatted == guide.displayPrice)
                let doubled = (guide.price * 2).formatted(guide.priceFormatStyle).replacingOccurrences(of: "\u{202F}", with: "\u{A0}")
                #expect(doubled == "9,98\u{A0}€")
                #expect(await Storefront.current?.countryCode == "FRA")
                #expect(await Storefront.current?.id == "143442")
            }
        }
    }

    @Test func subscriptionInfoHasGroupPeriodAndOffers() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("bea")) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                #expect(plus.type == .autoRenewable)
                let info = try #require(plus.subscription)
                #expect(info.subscriptionGroupID == "KG")
                #expect(info.groupLevel == 1)
                #expect(info.groupDisplayName == "Birder Plus")
                #expect(info.subscriptionPeriod == .monthly)
                let intro = try #require(info.introductoryOffer)
                #expect(intro.type == .introductory && intro.paymentMode == .freeTrial && intro.id == nil)
                #expect(intro.period == Product.SubscriptionPeriod(value: 1, unit: .week) && intro.periodCount == 1)
                #expect(info.promotionalOffers.map(\.id) == ["promo"])
                #expect(info.promotionalOffers.first?.paymentMode == .payAsYouGo && info.promotionalOffers.first?.periodCount == 2)
                #expect(info.promotionalOffers.first?.displayPrice == "$0.99")
                #expect(info.winBackOffers.map(\.id) == ["back"])
                #expect(info.winBackOffers.first?.type == .winBack)

                #expect(await info.isEligibleForIntroOffer)
                #expect(try await info.status.isEmpty)
                let bought = try await plus.purchase()
                guard case .success(.verified(let transaction)) = bought else { Issue.record("purchase: \(bought)"); return }
                #expect(transaction.offer?.type == .introductory && transaction.offer?.paymentMode == .freeTrial)
                #expect(transaction.offer?.period == Product.SubscriptionPeriod(value: 1, unit: .week))
                #expect(await info.isEligibleForIntroOffer == false)
                #expect(await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "KG") == false)

                let statuses = try await info.status
                #expect(statuses.count == 1)
                let status = try #require(statuses.first)
                #expect(status.state == .subscribed)
                let renewal = try status.renewalInfo.payloadValue
                #expect(renewal.willAutoRenew && renewal.currentProductID == "k.plus" && renewal.autoRenewPreference == "k.plus")
                #expect(renewal.originalTransactionID == transaction.originalID)
                #expect(renewal.environment == .sandbox && renewal.expirationReason == nil && !renewal.isInBillingRetry)
                #expect(renewal.priceIncreaseStatus == .noIncreasePending)
                #expect(renewal.renewalDate == transaction.expirationDate)
                #expect(renewal.recentSubscriptionStartDate == transaction.purchaseDate)
                #expect(try status.transaction.payloadValue.id == transaction.id)
                #expect(try await Product.SubscriptionInfo.status(for: "KG").count == 1)
                #expect(try await Product.SubscriptionInfo.status(for: "other").isEmpty)
            }
        }
    }
}
