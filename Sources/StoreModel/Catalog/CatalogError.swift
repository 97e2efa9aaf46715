/// Every fault found in a `.storekit` file, in file order, so one run shows all that needs fixing.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var faults: [CatalogFault]

    public init(faults: [CatalogFault]) {
        self.faults = faults
    }

    /// One fault per line.
    public var description: String {
        faults.map(\.description).joined(separator: "\n")
    }
}
