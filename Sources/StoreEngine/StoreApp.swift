import StoreModel

/// An app the store sells for. Each has its own bundle ID, Apple ID, environment and catalog,
/// and every signed payload carries the first three.
public struct StoreApp: Sendable {
    /// The app's bundle ID, which every signed payload carries.
    public var bundleId: String
    /// The app's Apple ID (`appAppleId`), which signed payloads carry.
    public var appAppleId: Int64
    /// `Sandbox` or `Production`: what the app's transactions say and where its notifications go.
    public var environment: StoreEnvironment
    /// The app's display name.
    public var name: String
    /// The app's products and settings, read from its `.storekit` file.
    public var catalog: Catalog
    /// The catalog's source text, kept so the catalog can be stored and shown as given.
    public var catalogJSON: String
    /// The version on sale now: a customer's first App Transaction records it as both
    /// `applicationVersion` and `originalApplicationVersion` (paid-to-free checks compare it).
    public var applicationVersion = "1.0"

    /// An app from a catalog already decoded; `catalogJSON` should be its source.
    public init(bundleId: String, appAppleId: Int64, environment: StoreEnvironment, name: String, catalog: Catalog, catalogJSON: String) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.name = name
        self.catalog = catalog
        self.catalogJSON = catalogJSON
    }

    /// Loads the app from `.storekit` text, reporting the catalog's faults with their JSON paths.
    public init(bundleId: String, appAppleId: Int64, environment: StoreEnvironment, name: String, catalogJSON: String) throws(CatalogError) {
        let catalog = try Catalog.decode(Data(catalogJSON.utf8))
        self.init(bundleId: bundleId, appAppleId: appAppleId, environment: environment, name: name, catalog: catalog, catalogJSON: catalogJSON)
    }
}

import Foundation
