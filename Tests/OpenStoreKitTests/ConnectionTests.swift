import Foundation
import OpenStoreKit
import Testing

/// Configuring, and the clear errors of a store that is down, a wrong bundle ID or customer.
@Suite struct ConnectionTests {
    @Test func environmentVariablesConfigureWithoutCode() throws {
        let configuration = try OpenStoreKit.Configuration.fromEnvironment([
            "OPENSTORE_URL": "http://127.0.0.1:9", "OPENSTORE_BUNDLE_ID": "com.example.app", "OPENSTORE_CUSTOMER": "kim",
            "OPENSTORE_WORLD": "ci-7",
        ])
        #expect(configuration.store.absoluteString == "http://127.0.0.1:9")
        #expect(configuration.bundleID == "com.example.app" && configuration.customer == "kim" && configuration.world == "ci-7")
        // Created on first use unless strict (issue #28: unchanged app code never configures).
        #expect(configuration.storefront == nil && configuration.rootCertificate == nil && configuration.createsCustomer)
        #expect(throws: OpenStoreKitError.self) {
            try OpenStoreKit.Configuration.fromEnvironment(["OPENSTORE_URL": "nonsense", "OPENSTORE_BUNDLE_ID": "b", "OPENSTORE_CUSTOMER": "c"])
        }
    }

    @Test func aStoreThatIsDownIsANetworkErrorNotAHang() async throws {
        // A port that was just free: nothing listens there.
        let port = try await ClientTestStore.with { $0.port }
        let connection = StoreConnection(OpenStoreKit.Configuration(
            store: URL(string: "http://127.0.0.1:\(port)")!, bundleID: ClientTestStore.bundle, customer: "lee", requestTimeout: .seconds(5)))
        await OpenStoreKit.withConnection(connection) {
            await #expect { _ = try await Product.products(for: ["k.seeds"]) } throws: { error in
                guard case StoreKitError.networkError(let urlError) = error else { return false }
                return urlError.code == .cannotConnectToHost && urlError.localizedDescription.contains("127.0.0.1:\(port)")
            }
            // Lists don't throw in StoreKit: they end.
            #expect(await ids(Transaction.all).isEmpty)
        }
    }

    @Test func aWrongBundleIDWorldOrCustomerIsAClearError() async throws {
        try await ClientTestStore.with { store in
            await #expect { try await store.connection("may", bundle: "com.example.nope").connect() } throws: { error in
                guard case StoreKitError.systemError(let inner) = error, case OpenStoreKitError.appNotFound(let message) = inner else { return false }
                return message.contains("com.example.nope")
            }
            await #expect { try await store.connection("may", createsCustomer: false).connect() } throws: { error in
                guard case StoreKitError.systemError(let inner) = error, case OpenStoreKitError.customerNotFound(let message) = inner else { return false }
                return message.contains("may")
            }
            await #expect { try await store.connection("may", world: "no-such-world").connect() } throws: { error in
                guard case StoreKitError.systemError(let inner) = error, case OpenStoreKitError.worldNotFound = inner else { return false }
                return true
            }
            // Created on first contact when asked to; then the strict form finds it.
            try await store.connection("may").connect()
            try await store.connection("may", createsCustomer: false).connect()
        }
    }
}
