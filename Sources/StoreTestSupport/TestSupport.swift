import Foundation
import StoreEngine

// What several test modules share. A library target because test targets can't depend on each
// other; no product exposes it.

/// A clock that stands still unless a test moves it.
public final class TestClock: StoreClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    public init(_ date: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = date } // 2026-01-01
    public func now(world: String) -> Date { lock.withLock { current } }
    public func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A small catalog that exercises every product type and an intro offer.
public let testCatalogJSON = """
{
  "identifier" : "TEST0001",
  "nonRenewingSubscriptions" : [
    { "displayPrice" : "9.99", "familyShareable" : false, "internalID" : "N1", "localizations" : [ { "description" : "A season pass", "displayName" : "Season Pass", "locale" : "en_US" } ], "productID" : "test.season", "referenceName" : "Season", "type" : "NonRenewingSubscription" }
  ],
  "products" : [
    { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "C1", "localizations" : [ { "description" : "Seeds for birds", "displayName" : "Seeds", "locale" : "en_US" }, { "description" : "Des graines", "displayName" : "Graines", "locale" : "fr_FR" } ], "productID" : "test.seeds", "referenceName" : "Seeds", "type" : "Consumable" },
    { "displayPrice" : "4.99", "familyShareable" : true, "internalID" : "NC1", "localizations" : [ { "description" : "Unlock history", "displayName" : "History", "locale" : "en_US" } ], "productID" : "test.history", "referenceName" : "History", "type" : "NonConsumable" }
  ],
  "settings" : { "_locale" : "en_US", "_storefront" : "USA", "_timeRate" : 0 },
  "subscriptionGroups" : [
    { "id" : "G1", "localizations" : [ ], "name" : "Pass", "subscriptions" : [
      { "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "4.99", "familyShareable" : false, "groupNumber" : 2, "internalID" : "S1",
        "introductoryOffer" : { "internalID" : "I1", "paymentMode" : "free", "subscriptionPeriod" : "P1W" },
        "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ], "productID" : "test.monthly",
        "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Monthly", "subscriptionGroupID" : "G1", "type" : "RecurringSubscription" },
      { "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "39.99", "familyShareable" : false, "groupNumber" : 1, "internalID" : "S2",
        "introductoryOffer" : null,
        "localizations" : [ { "description" : "Yearly", "displayName" : "Yearly", "locale" : "en_US" } ], "productID" : "test.yearly",
        "recurringSubscriptionPeriod" : "P1Y", "referenceName" : "Yearly", "subscriptionGroupID" : "G1", "type" : "RecurringSubscription" }
    ] }
  ],
  "version" : { "major" : 3, "minor" : 0 }
}
"""

