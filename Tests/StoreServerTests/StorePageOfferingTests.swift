import Foundation
import StoreEngine
import StoreModel
import StoreServer
import StoreTestSupport
import StoreViews
import Testing

/// The demo paywalls read the offering a subscription backend serves their customer (#34 §6:
/// "Make the demo app's web paywall (/store, Food Truck and Backyard Birds) read its offering from
/// the backend when one is configured"). The store asks through `OfferingSource`; `openstore
/// serve` wires its backend there (compat/test_backend_serve.py runs that end to end).
@Suite(.removesTemporaryFolders) struct StorePageOfferingTests {
    static let birds = DemoCatalogs.backyardBirdsBundleID
    static let premium = "com.example.backyardbirds.pass.premium", family = "com.example.backyardbirds.pass.family"

    @Test func thePassPaywallShowsTheCustomersOfferingAndTheDefaultWithoutOne() async throws {
        let apps = [try StoreApp(bundleId: Self.birds, appAppleId: 46, environment: .sandbox, name: "Birds", catalogJSON: DemoCatalogs.backyardBirds)]
        let sale = RemoteOffering(id: "spring_sale", productIDs: [Self.family, "com.example.backyardbirds.pellets"],
                                  title: "Spring <b>sale</b>", subtitle: "The whole family, half off")
        let source: OfferingSource = { bundleId, customer in bundleId == Self.birds && customer == "ann" ? sale : nil }
        try await LiveServer.with(apps: apps, offerings: source) { server in
            let ann = String(decoding: try await server.request(.GET, "/store/backyard-birds-pass?customer=ann").body, as: UTF8.self)
            #expect(ann.contains("Spring &lt;b&gt;sale&lt;/b&gt;") && ann.contains("The whole family, half off"), "the offering's copy, escaped")
            #expect(ann.contains("data-product-id=\"\(Self.family)\"") && !ann.contains("data-product-id=\"\(Self.premium)\""),
                    "only the offering's plans of the Pass group")
            let bob = String(decoding: try await server.request(.GET, "/store/backyard-birds-pass?customer=bob").body, as: UTF8.self)
            #expect(bob.contains("Backyard Birds Pass") && !bob.contains("Spring"))
            #expect(bob.contains("data-product-id=\"\(Self.premium)\"") && bob.contains("data-product-id=\"\(Self.family)\""))
        }
    }

    @Test func theFoodTruckPaywallShowsTheOfferingsSocialFeedPlans() async throws {
        let truck = DemoCatalogs.foodTruckBundleID
        let monthly = "com.example.foodtruck.socialfeedplus.monthly", yearly = "com.example.foodtruck.socialfeedplus.yearly"
        let apps = [try StoreApp(bundleId: truck, appAppleId: 47, environment: .sandbox, name: "Truck", catalogJSON: DemoCatalogs.foodTruck)]
        let source: OfferingSource = { _, customer in
            customer == "ann" ? RemoteOffering(id: "yearly_only", productIDs: [yearly], title: "A year of Social Feed+") : nil
        }
        try await LiveServer.with(apps: apps, offerings: source) { server in
            let ann = String(decoding: try await server.request(.GET, "/store/food-truck?customer=ann").body, as: UTF8.self)
            #expect(ann.contains("A year of Social Feed+") && ann.contains("data-product-id=\"\(yearly)\"") && !ann.contains("data-product-id=\"\(monthly)\""))
            let bob = String(decoding: try await server.request(.GET, "/store/food-truck?customer=bob").body, as: UTF8.self)
            #expect(bob.contains("data-product-id=\"\(monthly)\"") && bob.contains("data-product-id=\"\(yearly)\""))
        }
    }
}
