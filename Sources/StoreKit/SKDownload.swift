import Foundation

/// Downloadable content hosted by Apple. Apple retired hosted content; no product here has any,
/// so no download is ever made. The type exists so observers that mention it compile.
open class SKDownload: NSObject, @unchecked Sendable {
    /// The states of a download, with Apple's raw values.
    public enum State: Int, Sendable, Hashable {
        case waiting = 0, active, paused, finished, failed, cancelled
    }

    /// Mirrors StoreKit's `SKDownload.state`: always `.failed`, since there is never hosted content to fetch.
    open var state: State { .failed }
    /// Mirrors StoreKit's `SKDownload.contentIdentifier`: always empty here.
    open var contentIdentifier: String { "" }
    /// Mirrors StoreKit's `SKDownload.contentURL`: where finished content would be; always nil here.
    open var contentURL: URL? { nil }
    /// Mirrors StoreKit's `SKDownload.contentVersion`: always empty here.
    open var contentVersion: String { "" }
    /// Mirrors StoreKit's `SKDownload.contentLength`: always 0 here.
    open var contentLength: Int64 { 0 }
    /// Mirrors StoreKit's `SKDownload.error`: an `SKError.unsupportedPlatform` saying hosted content is not available.
    open var error: (any Error)? { SKError(.unsupportedPlatform, message: "hosted content is not available") }
    /// Mirrors StoreKit's `SKDownload.expectedContentLength`: always 0 here.
    open var expectedContentLength: Int64 { 0 }
    /// Mirrors StoreKit's `SKDownload.progress`: always 0 here.
    open var progress: Float { 0 }
    /// Mirrors StoreKit's `SKDownload.timeRemaining`: always 0 here.
    open var timeRemaining: TimeInterval { 0 }
    /// Mirrors StoreKit's `SKDownload.transaction`: the transaction the content belongs to; always nil here.
    open var transaction: SKPaymentTransaction? { nil }
}

/// The download states under their StoreKit 1 name.
public typealias SKDownloadState = SKDownload.State
