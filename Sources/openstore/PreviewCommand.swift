import ArgumentParser
import Foundation
import StoreModel
import StoreViews

/// `openstore preview`: a catalog's store views as static HTML files, with no server running —
/// the "Xcode Previews" of a `.storekit` file. See docs/previews.md.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Render every product and subscription group of a .storekit catalog to static HTML (no server).",
        discussion: """
        Writes index.html (every product in every ProductView style, a StoreView, every group in every \
        control style), product-<id>.html per product, group-<id>.html per subscription group, and \
        loading.html (the pages as StoreKit shows them before data arrives). Open them in a browser.
        """)

    @Argument(help: "The .storekit file.")
    var file: String
    @Option(help: "Folder to write the pages to (created if missing; existing pages are replaced).")
    var out = "storekit-preview"
    @Option(help: "Storefront whose currency formats the prices, e.g. USA, FRA, JPN (default: the catalog's _storefront).")
    var storefront: String?
    @Option(help: "Locale of product texts, e.g. en_US, fr_FR (default: the --storefront's locale if given, else the catalog's _locale).")
    var locale: String?
    @Option(help: "Color scheme of the pages: automatic (follows the browser), light or dark.")
    var scheme: Scheme = .automatic

    enum Scheme: String, CaseIterable, ExpressibleByArgument {
        case automatic, light, dark
        var colorScheme: PageRenderer.ColorScheme {
            switch self {
            case .automatic: .automatic
            case .light: .light
            case .dark: .dark
            }
        }
    }

    func run() throws {
        let catalog = try CatalogFile.load(file)
        let front = try CatalogFile.storefront(storefront, of: catalog)
        // An explicit storefront reads as "show me this country", texts included.
        let textLocale = locale ?? (storefront != nil ? front.locale : catalog.settings.locale)
        let site = PreviewSite(catalog: catalog, storefront: front, locale: textLocale, scheme: scheme.colorScheme)

        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for page in site.pages() {
                let url = folder.appendingPathComponent(page.fileName)
                try Data(page.html.utf8).write(to: url, options: .atomic)
                print(url.path)
            }
        } catch {
            FileHandle.standardError.write(Data("cannot write the preview to \(folder.path): \(error.localizedDescription)\n".utf8))
            throw ExitCode(1)
        }
    }
}
