import Foundation

/// What a request tells its delegate. Both methods are optional in StoreKit (`@objc optional`);
/// here they have empty default implementations, so a delegate implements only what it needs.
public protocol SKRequestDelegate: NSObjectProtocol {
    /// The request finished (after the products response, or once the receipt was refreshed).
    func requestDidFinish(_ request: SKRequest)
    /// The request failed; `error` is an `SKError`. No `requestDidFinish` follows.
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
    /// Default for delegates that do not implement it: ignore the finish.
    public func requestDidFinish(_ request: SKRequest) {}
    /// Default for delegates that do not implement it: ignore the failure.
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}
