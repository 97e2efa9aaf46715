import Foundation
@testable import StoreModel

/// Shared helpers for the StoreModel tests.
enum TestSupport {
    /// `/work/shared/reference/storekit-samples` next to the repository, when present.
    static let samplesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // StoreModelTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("../shared/reference/storekit-samples")
        .standardizedFileURL

    /// Whether the shared samples are available (they are not in a fresh clone).
    static var samplesAvailable: Bool {
        FileManager.default.fileExists(atPath: samplesDirectory.appendingPathComponent("INDEX.md").path)
    }

    static func sample(_ name: String) throws -> Catalog {
        try Catalog.load(contentsOf: samplesDirectory.appendingPathComponent(name))
    }

    static func fixtureURL(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "storekit", subdirectory: "Fixtures")
    }

    static func fixture(_ name: String) throws -> Catalog {
        guard let url = fixtureURL(name) else {
            throw CatalogError(faults: [CatalogFault(path: "", message: "missing fixture \(name)")])
        }
        return try Catalog.load(contentsOf: url)
    }

    static func fixtureData(_ name: String) -> Data {
        guard let url = fixtureURL(name), let data = try? Data(contentsOf: url) else { return Data() }
        return data
    }

    /// The faults of decoding `json`, or [] when it decodes.
    static func faults(_ json: String) -> [CatalogFault] {
        do {
            _ = try Catalog.decode(Data(json.utf8))
            return []
        } catch {
            return error.faults
        }
    }
}

/// An exact decimal from text, for expectations (NaN if the literal is mistyped, which fails the test).
func dec(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
}

func period(_ text: String) -> SubscriptionPeriod {
    SubscriptionPeriod(iso8601: text) ?? SubscriptionPeriod(unit: .day, value: -1)
}
