/// Every fault found in a `.storekit` file, in file order, so one run shows all that needs fixing.
/// The warnings found beside them are kept too, so a report can show both.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What must be fixed before the file loads, in file order; never empty when thrown.
    public var faults: [CatalogFault]
    /// Oddities Xcode tolerates, found in the same pass (empty when reading strictly: they are faults then).
    public var warnings: [CatalogWarning]

    /// An error carrying every fault found, plus the warnings of the same pass.
    public init(faults: [CatalogFault], warnings: [CatalogWarning] = []) {
        self.faults = faults
        self.warnings = warnings
    }

    /// One fault per line.
    public var description: String {
        faults.map(\.description).joined(separator: "\n")
    }
}
