import Foundation
import OpenStoreKit

/// The app receipt as a file, as a device keeps it at `Bundle.main.appStoreReceiptURL`. The
/// layer writes it when a purchase or restore completes (before the observer hears of it) and
/// when an `SKReceiptRefreshRequest` finishes, so code that reads the receipt file and sends it
/// to `verifyReceipt` works unchanged.
///
/// Where: `<directory>/<world>/<bundle ID>/<customer>/StoreKit/receipt`, one file per account
/// and app (a "device" per customer). `directory` is, in order: what the app set,
/// `OPENSTORE_RECEIPT_DIRECTORY`, or `OpenStoreKit/receipts` in the user's Application Support
/// folder (`~/.local/share` on Linux).
public enum AppReceiptFile {
    private static let configured = LockedBox<URL?>(nil)

    /// The folder every receipt file is kept under. Set it to give a test or a "device" its own.
    public static var directory: URL {
        get {
            if let configured = configured.get() { return configured }
            if let path = ProcessInfo.processInfo.environment["OPENSTORE_RECEIPT_DIRECTORY"], !path.isEmpty {
                return URL(fileURLWithPath: path, isDirectory: true)
            }
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return support.appendingPathComponent("OpenStoreKit/receipts", isDirectory: true)
        }
        set { configured.set(newValue) }
    }

    /// The receipt file of one account and app.
    public static func url(for configuration: OpenStoreKit.Configuration) -> URL {
        func component(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._"))) ?? text
        }
        return directory
            .appendingPathComponent(component(configuration.world), isDirectory: true)
            .appendingPathComponent(component(configuration.bundleID), isDirectory: true)
            .appendingPathComponent(component(configuration.customer), isDirectory: true)
            .appendingPathComponent("StoreKit/receipt")
    }

    /// The receipt file of the connection in effect (see `OpenStoreKit.connection()`); nil when
    /// none is configured. The file may not exist yet: refresh the receipt to get it.
    public static var current: URL? {
        (try? OpenStoreKit.connection()).map { url(for: $0.configuration) }
    }

    /// Fetches the receipt from the store and writes it (atomically) to the connection's file.
    @discardableResult
    public static func refresh(_ connection: StoreConnection) async throws -> URL {
        let data = try await connection.appReceipt()
        let url = url(for: connection.configuration)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
        return url
    }
}

extension Bundle {
    /// `appStoreReceiptURL` for this layer: the receipt file of the configured account and app
    /// (see `AppReceiptFile`). Linux's Foundation already declares `appStoreReceiptURL` (always
    /// nil) and `Bundle` cannot be subclassed, so app code says `openStoreReceiptURL` instead.
    public var openStoreReceiptURL: URL? { AppReceiptFile.current }
}
