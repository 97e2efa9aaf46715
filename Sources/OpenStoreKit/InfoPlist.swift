import Foundation

/// Where an app's bundle ID comes from when nobody configured one: its `Info.plist`, as on a
/// device (`Bundle.main.bundleIdentifier`).
enum InfoPlist {
    /// `Info.plist` files an app may have: the main bundle's (macOS apps), beside the executable
    /// (a Linux app ships it there), and in the working directory.
    static func candidates() -> [URL] {
        var urls: [URL] = []
        if let main = Bundle.main.url(forResource: "Info", withExtension: "plist") { urls.append(main) }
        if let executable = Bundle.main.executableURL {
            urls.append(executable.deletingLastPathComponent().appendingPathComponent("Info.plist"))
        }
        urls.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Info.plist"))
        return urls
    }

    /// `CFBundleIdentifier` of the first readable property list among `urls`, or the main bundle's.
    static func bundleIdentifier(in urls: [URL]) -> String? {
        for url in urls {
            guard let data = try? Data(contentsOf: url),
                  let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let identifier = plist["CFBundleIdentifier"] as? String, !identifier.isEmpty else { continue }
            return identifier
        }
        #if canImport(Darwin)
        return Bundle.main.bundleIdentifier
        #else
        return nil
        #endif
    }
}
