import Foundation
import StoreModel

/// Finds and reads a session's `.storekit` file.
enum ConfigurationLookup {
    /// `SKTestSession(configurationFileNamed:)`: the test bundle's resources (SwiftPM's
    /// `*.resources` folders beside the test binary, and the bundles Foundation knows), then the
    /// working folder. Not found, the error lists every place looked in.
    static func find(_ name: String) throws -> URL {
        let file = name.hasSuffix(".storekit") ? name : name + ".storekit"
        let manager = FileManager.default
        var looked: [String] = []
        var roots: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            if let url = bundle.url(forResource: (file as NSString).deletingPathExtension, withExtension: "storekit") { return url }
            if let resources = bundle.resourceURL { roots.append(resources) }
        }
        let executableFolder = Bundle.main.executableURL?.deletingLastPathComponent()
        if let folder = executableFolder ?? Bundle.main.resourceURL,
           let entries = try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            roots += entries.filter { $0.pathExtension == "resources" || $0.pathExtension == "bundle" }.sorted { $0.path < $1.path }
        }
        for root in roots {
            looked.append(root.path)
            if let found = search(file, in: root, depth: 3) { return found }
        }
        let working = URL(fileURLWithPath: manager.currentDirectoryPath).appendingPathComponent(file)
        looked.append(working.deletingLastPathComponent().path)
        if manager.fileExists(atPath: working.path) { return working }
        throw SKTestError(.fileNotFound, "no configuration file \(file): looked in the test bundle's resources "
            + "(\(looked.dropLast().joined(separator: ", ")))" + " and the working folder (\(looked.last ?? "")); "
            + "add it to the test target's resources (resources: [.copy(\"\(file)\")]) or use SKTestSession(contentsOf:)")
    }

    private static func search(_ file: String, in folder: URL, depth: Int) -> URL? {
        let direct = folder.appendingPathComponent(file)
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        guard depth > 0, let entries = try? FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else { return nil }
        for entry in entries.sorted(by: { $0.path < $1.path })
        where (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            if let found = search(file, in: entry, depth: depth - 1) { return found }
        }
        return nil
    }

    /// The file's text and catalog; a broken file names each fault with its JSON path.
    static func load(_ url: URL) throws -> (String, Catalog) {
        guard url.isFileURL else { throw SKTestError(.invalidURL, "\(url.absoluteString) is not a file URL; give the .storekit file's path") }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SKTestError(.fileNotFound, "no configuration file at \(url.path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SKTestError(.invalidAction, "the configuration file \(url.path) is not UTF-8 text")
        }
        do {
            return (text, try Catalog.decode(data))
        } catch {
            throw SKTestError(.invalidAction, "the configuration file \(url.path) is not a valid .storekit file:\n\(error.description)")
        }
    }
}
