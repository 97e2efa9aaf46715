import Foundation

/// `Tests/Fixtures/` in the repository: the `.storekit` catalogs the Swift test targets sell from.
public let testFixturesFolder: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // StoreTestSupport
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("Tests/Fixtures")

/// The text of `Tests/Fixtures/<name>.storekit`. A missing fixture stops the test run with its path.
public func fixtureCatalog(_ name: String) -> String {
    let url = testFixturesFolder.appendingPathComponent("\(name).storekit")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        fatalError("test fixture not found: \(url.path)")
    }
    return text
}
