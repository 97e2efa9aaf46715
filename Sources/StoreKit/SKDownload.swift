import Foundation

/// Downloadable content hosted by Apple. Apple retired hosted content; no product here has any,
/// so no download is ever made. The type exists so observers that mention it compile.
open class SKDownload: NSObject, @unchecked Sendable {
    /// The states of a download, with Apple's raw values.
    public enum State: Int, Sendable, Hashable {
        case waiting = 0, active, paused, finished, failed, cancelled
    }

    open var state: State { .failed }
    open var contentIdentifier: String { "" }
    open var contentURL: URL? { nil }
    open var contentVersion: String { "" }
    open var contentLength: Int64 { 0 }
    open var error: (any Error)? { SKError(.unsupportedPlatform, message: "hosted content is not available") }
    open var expectedContentLength: Int64 { 0 }
    open var progress: Float { 0 }
    open var timeRemaining: TimeInterval { 0 }
    open var transaction: SKPaymentTransaction? { nil }
}

/// The download states under their StoreKit 1 name.
public typealias SKDownloadState = SKDownload.State
