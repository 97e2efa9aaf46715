import Foundation
import OpenStoreKit
import StoreEngine
import StoreModel

/// Apple's StoreKitTest session, on Linux: it controls a store that StoreKit's API in the same
/// test talks to. Unlike Xcode's single shared test environment, every session has a store of its
/// own (a world of its own in a store hosted in the test process), so tests that each make a
/// session may run in parallel and never see each other's customers, transactions, clocks or
/// switches.
///
/// Every action and setter returns only after its effect is visible to StoreKit calls made next in
/// the same test (`Transaction.currentEntitlements`, `Product.SubscriptionInfo.status`, …), and the
/// transaction updates it causes reach `Transaction.updates` in the order the actions were made.
public final class SKTestSession: Sendable {
    let host: HostedStore
    /// The session's world in the hosted store.
    let world: String
    /// The App Store account "signed in" on the simulated device.
    let customer: String
    /// What StoreKit's API uses inside this session's test (see `SessionRegistry`), or inside
    /// `withStoreKit` anywhere.
    public let connection: StoreConnection
    let state: SessionState

    /// A session for the `.storekit` file named `configurationFileNamed` (with or without its
    /// extension): looked up in the test bundle's resources, then the working folder.
    public convenience init(configurationFileNamed name: String) throws {
        try self.init(contentsOf: ConfigurationLookup.find(name))
    }

    /// A session for the `.storekit` file at `fileURL`. A missing or broken file throws
    /// `SKTestError` naming the file (and for a broken one, the JSON path of each fault).
    public init(contentsOf fileURL: URL) throws {
        let (text, catalog) = try ConfigurationLookup.load(fileURL)
        let world = "sktest-" + UUID().uuidString.prefix(13).lowercased()
        let customer = "sktest"
        let host = try Blocking.run { () -> HostedStore in
            let host = try await StoreHosting.shared.store(catalogJSON: text, catalog: catalog)
            _ = try await host.store.createWorld(world)
            _ = try await host.store.world(world).saveCustomer(customer, storefront: catalog.settings.storefront,
                                                  locale: catalog.settings.locale)
            return host
        }
        self.host = host
        self.world = world
        self.customer = customer
        self.connection = StoreConnection(OpenStoreKit.Configuration(
            store: host.url, bundleID: HostedStore.bundleID, customer: customer, world: world,
            rootCertificate: host.rootCertificateDER, createsCustomer: false, requestTimeout: .seconds(30)))
        self.state = SessionState(SessionState.Values(catalog: catalog))
        SessionRegistry.shared.register(self)
    }

    deinit {
        let store = host.store
        let world = world
        Task.detached { try? await store.deleteWorld(world) }
    }

    /// Runs `body` with StoreKit's API talking to this session's store, in whatever test or task
    /// it runs: the explicit form, for code that is not inside the test that made the session
    /// (a detached task, a parameterised test whose cases share sessions, a helper process).
    public func withStoreKit<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await OpenStoreKit.withConnection(connection, body)
    }

    // MARK: Engine calls

    /// Runs a store call for a synchronous API, mapping the store's refusals to `SKTestError`.
    func blocking<T: Sendable>(_ work: @escaping @Sendable (StoreEngine.AppStore) async throws -> T) throws -> T {
        let store = host.store
        return try Blocking.run {
            do { return try await work(store) } catch { throw SKTestError(mapping: error) }
        }
    }

    /// The same for an async API.
    func call<T: Sendable>(_ work: @escaping @Sendable (StoreEngine.AppStore) async throws -> T) async throws -> T {
        do { return try await work(host.store) } catch { throw SKTestError(mapping: error) }
    }
}

extension SKTestError {
    /// The store's refusals as StoreKitTest's errors.
    init(mapping error: any Error) {
        if let mine = error as? SKTestError { self = mine; return }
        if let offer = error as? OfferError { self.init(.invalidAction, "\(offer)"); return }
        guard let store = error as? StoreError else {
            self.init(.serviceUnavailable, "the in-process store failed: \(error)")
            return
        }
        switch store {
        case .productUnavailable(let message): self.init(.invalidProductIdentifier, message)
        case .transactionNotFound(let message): self.init(.noTransactionFound, message)
        case .invalidAction(let message), .alreadyPurchased(let message), .invalidQuantity(let message),
             .malformedRequest(let message), .invalidAppAccountToken(let message), .invalidStorefront(let message):
            self.init(.invalidAction, message)
        default: self.init(.serviceUnavailable, store.message)
        }
    }
}
