import ArgumentParser
import Foundation
import StoreModel

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "Check and show Xcode .storekit catalogs.",
        subcommands: [Validate.self, Show.self])

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check .storekit files; exit 1 and print each fault with its JSON path if any is broken.")
        @Argument(help: "The .storekit files.") var files: [String]

        func run() throws {
            var broken = false
            for file in files {
                do {
                    let catalog = try Catalog.load(contentsOf: URL(fileURLWithPath: file))
                    print("\(file): OK (\(catalog.products.count) products, \(catalog.subscriptionGroups.count) subscription groups)")
                } catch {
                    broken = true
                    print("\(file): \(error.faults.count) fault(s)")
                    for fault in error.faults { print("  \(fault)") }
                }
            }
            if broken { throw ExitCode(1) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a catalog's products, groups, levels, prices and offers.")
        @Argument(help: "The .storekit file.") var file: String
        @Option(help: "Storefront whose currency formats the prices (default: the catalog's _storefront).")
        var storefront: String?

        func run() throws {
            let catalog = try CatalogFile.load(file)
            print(CatalogTable.render(catalog, storefront: try CatalogFile.storefront(storefront, of: catalog)))
        }
    }
}
