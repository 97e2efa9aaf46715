import ArgumentParser
import Foundation
import StoreModel

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "Check and show Xcode .storekit catalogs.",
        subcommands: [Validate.self, Show.self])

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check .storekit files: print each fault and warning with its JSON path; exit 1 if any file is broken.",
            discussion: """
            A file Xcode opens loads: what Xcode tolerates (an empty price, the old number form of \
            _compatibilityTimeRate, a repeated subscription group ID) is a warning, and the exit code \
            stays 0. With --strict, warnings are faults too. The rules are in docs/catalog-format.md.
            """)
        @Flag(help: "Treat warnings as faults (exit 1 when a file has any).") var strict = false
        @Argument(help: "The .storekit files.") var files: [String]

        func run() throws {
            var broken = false
            for file in files {
                do {
                    let reading = try Catalog.read(contentsOf: URL(fileURLWithPath: file), strict: strict)
                    let catalog = reading.catalog
                    var line = "\(file): OK (\(catalog.products.count) products, \(catalog.subscriptionGroups.count) subscription groups)"
                    if !reading.warnings.isEmpty { line += ", \(reading.warnings.count) warning(s)" }
                    print(line)
                    for warning in reading.warnings { print("  warning: \(warning)") }
                } catch {
                    broken = true
                    print(CatalogFile.report(file, error))
                }
            }
            if broken { throw ExitCode(1) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a catalog's products, groups, levels, prices and offers.",
            discussion: """
            --json prints the catalog as a .storekit document in Xcode's layout instead: what the \
            reader understood, with every tolerated oddity written out tidily. Reading it back gives \
            the same catalog. Warnings go to stderr.
            """)
        @Argument(help: "The .storekit file.") var file: String
        @Option(help: "Storefront whose currency formats the prices (default: the catalog's _storefront).")
        var storefront: String?
        @Flag(help: "Print the catalog as a .storekit JSON document instead of a table.") var json = false

        func run() throws {
            let catalog = try CatalogFile.load(file)
            if json {
                print(catalog.storekitDocument(), terminator: "")
                return
            }
            print(CatalogTable.render(catalog, storefront: try CatalogFile.storefront(storefront, of: catalog)))
        }
    }
}
