import StoreModel

/// An app the store sells for. Each has its own bundle ID, Apple ID, environment and catalog,
/// and every signed payload carries the first three.
public struct StoreApp: Sendable {
    public var bundleId: String
    public var appAppleId: Int64
    public var environment: StoreEnvironment
    public var name: String
    public var catalog: Catalog
    /// The catalog's source text, kept so the catalog can be stored and shown as given.
    public var catalogJSON: String
    /// The version on sale now: a customer's first App Transaction records it as both
    /// `applicationVersion` and `originalApplicationVersion` (paid-to-free checks compare it).
    public var applicationVersion = "1.0"

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
