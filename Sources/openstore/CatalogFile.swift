import ArgumentParser
import Foundation
import StoreModel

/// Reading a `.storekit` file named on the command line, the same way in every command: a broken
/// file prints each fault with its JSON path and exits 1; what Xcode tolerates loads, and each
/// oddity is printed to stderr as a warning with its path; an unknown storefront is a usage error.
enum CatalogFile {
    static func load(_ file: String) throws -> Catalog {
        do {
            let reading = try Catalog.read(contentsOf: URL(fileURLWithPath: file))
            for warning in reading.warnings {
                FileHandle.standardError.write(Data("\(file): warning: \(warning)\n".utf8))
            }
            return reading.catalog
        } catch {
            print(report(file, error))
            throw ExitCode(1)
        }
    }

    /// `FILE: N fault(s)`, then each fault and each warning on its own indented line.
    static func report(_ file: String, _ error: CatalogError) -> String {
        var lines = ["\(file): \(error.faults.count) fault(s)"]
        lines += error.faults.map { "  \($0)" }
        lines += error.warnings.map { "  warning: \($0)" }
        return lines.joined(separator: "\n")
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
