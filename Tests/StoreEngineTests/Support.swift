import Foundation
import StoreEngine
import StoreModel
import StoreStorage

/// A clock that stands still unless a test moves it.
final class TestClock: StoreClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ date: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = date } // 2026-01-01
    func now(world: String) -> Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A small catalog that exercises every product type and an intro offer.
let testCatalogJSON = """
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

let testBundle = "com.example.test"

func makeApp(environment: StoreEnvironment = .sandbox, bundleId: String = testBundle) throws -> StoreApp {
    try StoreApp(bundleId: bundleId, appAppleId: 1_234_567_890, environment: environment, name: "Test", catalogJSON: testCatalogJSON)
}

func databasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("openstore-engine-\(UUID().uuidString)/store.sqlite").path
}

func makeStore(path: String = databasePath(), clock: TestClock = TestClock(), apps: [StoreApp]? = nil) async throws -> AppStore {
    let database = try await StoreDatabase.open(path: path)
    return try await AppStore.open(database: database, apps: apps ?? [try makeApp()], clock: clock)
}
