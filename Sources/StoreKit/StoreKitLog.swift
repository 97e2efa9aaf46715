import Foundation

/// Where the layer reports what it skipped (a receipt it could not refresh, a call StoreKit
/// would reject): one line on standard error, as StoreKit's own console messages.
enum StoreKitLog {
    static func error(_ message: @autoclosure () -> String) {
        FileHandle.standardError.write(Data("[StoreKit] \(message())\n".utf8))
    }
}
