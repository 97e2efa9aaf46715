import Foundation
@testable import OpenStoreKit
import StoreTestSupport
import Testing

/// Configuration without code (issue #28): an app that never calls `configure` runs against
/// `openstore serve` on its default port, as its Info.plist's bundle ID, signed in as a customer
/// created on first use; and listing products needs no customer at all.
@Suite struct ConfigurationDefaultsTests {
    @Test func everyValueHasADefaultAndTheEnvironmentOverridesIt() throws {
        let plist = TemporaryFolder.make("config").appendingPathComponent("Info.plist")
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.example.fromplist", "CFBundleShortVersionString": "2.0"], format: .xml, options: 0)
        try data.write(to: plist)

        let defaults = try OpenStoreKit.Configuration.fromEnvironment([:], infoPlists: [plist])
        #expect(defaults.store.absoluteString == "http://127.0.0.1:8080")
        #expect(defaults.bundleID == "com.example.fromplist")
        #expect(defaults.customer == "default" && defaults.world == "default" && defaults.createsCustomer)

        let given = try OpenStoreKit.Configuration.fromEnvironment(
            ["OPENSTORE_URL": "http://127.0.0.1:9", "OPENSTORE_BUNDLE_ID": "com.example.env", "OPENSTORE_CUSTOMER": "kim",
             "OPENSTORE_STRICT": "1"], infoPlists: [plist])
        #expect(given.bundleID == "com.example.env" && given.customer == "kim" && !given.createsCustomer)
        #expect(!(try OpenStoreKit.Configuration.fromEnvironment(["OPENSTORE_CREATE_CUSTOMER": "0"], infoPlists: [plist]).createsCustomer))
    }

    @Test func noBundleIDAnywhereIsAClearError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/Info.plist")
        #expect { try OpenStoreKit.Configuration.fromEnvironment([:], infoPlists: [missing]) } throws: { error in
            guard case OpenStoreKitError.notConfigured(let message) = error else { return false }
            return message.contains("OPENSTORE_BUNDLE_ID") && message.contains("Info.plist")
        }
        #expect(throws: OpenStoreKitError.self) {
            try OpenStoreKit.Configuration.fromEnvironment(["OPENSTORE_URL": "nonsense", "OPENSTORE_BUNDLE_ID": "b"], infoPlists: [])
        }
    }

    @Test func listingProductsNeedsNoCustomer() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            // Strict: a purchase would fail for a customer that does not exist, but listing does not.
            let connection = store.connection("nobody-yet", world: world, createsCustomer: false)
            let products = try await OpenStoreKit.withConnection(connection) { try await Product.products(for: ["k.seeds"]) }
            #expect(products.map(\.id) == ["k.seeds"])
            let account = try await store.request(.GET, ClientTestStore.api(world) + "/customers/nobody-yet")
            #expect(account.status == 404)
            // Not strict: the customer appears on first use that needs one.
            let lenient = store.connection("first-use", world: world, createsCustomer: true)
            _ = try await OpenStoreKit.withConnection(lenient) { try await Product.products(for: ["k.seeds"]) }
            #expect(try await store.request(.GET, ClientTestStore.api(world) + "/customers/first-use").status == 404)
            await OpenStoreKit.withConnection(lenient) { for await _ in Transaction.all {} }
            #expect(try await store.request(.GET, ClientTestStore.api(world) + "/customers/first-use").status == 200)
        }
    }
}
