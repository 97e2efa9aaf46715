import ArgumentParser
import Foundation
import StoreModel

/// Reading a `.storekit` file named on the command line, the same way in every command: a broken
/// file prints each fault with its JSON path and exits 1; an unknown storefront is a usage error.
enum CatalogFile {
    static func load(_ file: String) throws -> Catalog {
        do {
            return try Catalog.load(contentsOf: URL(fileURLWithPath: file))
        } catch {
            print("\(file): \(error.faults.count) fault(s)")
            for fault in error.faults { print("  \(fault)") }
            throw ExitCode(1)
        }
    }

    /// `code`, else the catalog's `_storefront`.
    static func storefront(_ code: String?, of catalog: Catalog) throws -> Storefront {
        let code = code ?? catalog.settings.storefront
        guard let front = Storefront.lookup(code) else {
            throw ValidationError("unknown storefront \(code): use ISO 3166-1 alpha-3, e.g. USA")
        }
        return front
    }
}
