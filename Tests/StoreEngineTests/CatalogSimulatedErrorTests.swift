import Testing
import StoreEngine
import StoreModel
import StoreTestSupport

/// Issue 16 item 13: `_storeKitErrors[].current` sets a world's default simulated errors, as Xcode
/// does when it opens the file (`current` = `{index, type}`: the case's position in the
/// `SKTestFailures` family's enum; see `CatalogSimulatedErrors`).
@Suite(.removesTemporaryFolders) struct CatalogSimulatedErrorTests {
    static let errorsJSON = #""_storeKitErrors" : [ { "current" : { "index" : 1, "type" : "purchase" }, "enabled" : true, "name" : "Purchase" }, { "current" : { "index" : 2, "type" : "generic" }, "enabled" : false, "name" : "Load Products" }, { "current" : { "index" : 4, "type" : "generic" }, "enabled" : true, "name" : "Offer Code Redeem Sheet" }, { "current" : { "index" : 9, "type" : "generic" }, "enabled" : true, "name" : "App Store Sync" }, { "current" : { "index" : 0, "type" : "mystery" }, "enabled" : true, "name" : "App Transaction" }, { "current" : null, "enabled" : true, "name" : "Subscription Status" } ], "_locale""#

    func makeErrorStore() async throws -> AppStore {
        let json = testCatalogJSON.replacingOccurrences(of: #""_locale""#, with: Self.errorsJSON)
        let app = try StoreApp(bundleId: testBundle, appAppleId: 1_234_567_890, environment: .sandbox, name: "Test", catalogJSON: json)
        return try await makeStore(apps: [app])
    }

    @Test func currentErrorsOfEnabledEntriesAreTheWorldsDefaults() async throws {
        let store = try await makeErrorStore()
        let settings = try await store.worldInfo(world).settings
        // Purchase: index 1 of Product.PurchaseError; Offer Code Redeem Sheet: index 4 of StoreKitError.
        // The disabled entry, the out-of-range index, the unknown type and the null choice set nothing.
        #expect(settings.simulatedErrors == ["Purchase": "productUnavailable", "Offer Code Redeem Sheet": "notAvailableInStorefront"])
        let request = PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "ana")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "productUnavailable")

        // The test clears it as with setSimulatedError(nil, forAPI:); a reset goes back to the file.
        _ = try await store.world(world).setSimulatedError(api: "Purchase", error: nil)
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == nil)
        _ = try await store.resetWorld(world)
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "productUnavailable")
        // A new world starts from the file too.
        let other = try await store.createWorld("other")
        #expect(other.settings.simulatedErrors["Purchase"] == "productUnavailable")
    }

    @Test func theMappingFollowsEachFamilysDeclarationOrder() {
        func error(_ index: Int, _ type: String, enabled: Bool = true) -> String? {
            CatalogSimulatedErrors.error(of: StoreKitErrorSetting(name: "Purchase", enabled: enabled, current: .init(index: index, type: type)))
        }
        #expect(error(0, "generic") == "unknown" && error(1, "generic") == "userCancelled" && error(6, "generic") == "unsupported")
        #expect(error(0, "verification") == "revokedCertificate" && error(1, "refundRequest") == "failed")
        #expect(error(7, "purchase") == "missingOfferParameters" && error(8, "purchase") == nil)
        #expect(error(1, "purchase", enabled: false) == nil && error(-1, "generic") == nil)
    }

    /// Each API fails only with what StoreKit Testing offers it (`SKTestFailures`): StoreKitError's
    /// cases everywhere, Product.PurchaseError's on Purchase, RefundRequestError's on the refund
    /// sheet, VerificationError's alone on Verification. Anything else is refused, naming the choices.
    @Test func eachAPIFailsOnlyWithTheErrorsStoreKitTestingOffersIt() async throws {
        let store = try await makeStore(apps: [try makeApp()])
        for (api, error) in [("Purchase", "invalidQuantity"), ("Purchase", "networkError"), ("Verification", "invalidSignature"),
                             ("Refund Request Sheet", "duplicateRequest"), ("Load Products", "notEntitled")] {
            #expect(try await store.world(world).setSimulatedError(api: api, error: error).settings.simulatedErrors[api] == error)
        }
        for (api, error) in [("Purchase", "bogus"), ("Verification", "networkError"), ("Load Products", "invalidQuantity"),
                             ("App Transaction", "duplicateRequest")] {
            #expect(await storeCode { _ = try await store.world(world).setSimulatedError(api: api, error: error) } == "unprocessableRequest",
                    "\(api) with \(error)")
        }
        #expect(FailableAPIErrors.errors(for: "Verification").first == "revokedCertificate")
    }
}
