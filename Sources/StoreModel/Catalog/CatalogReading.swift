/// A catalog read from a `.storekit` file together with the oddities Xcode tolerates in it, so a
/// caller can load the file and still tell its author what to tidy up.
public struct CatalogReading: Sendable, Equatable {
    /// The catalog as read; usable even when there are warnings.
    public var catalog: Catalog
    /// In file order; empty for a tidy file.
    public var warnings: [CatalogWarning]

    /// A reading of `catalog`, with what Xcode tolerated in it.
    public init(catalog: Catalog, warnings: [CatalogWarning] = []) {
        self.catalog = catalog
        self.warnings = warnings
    }
}
