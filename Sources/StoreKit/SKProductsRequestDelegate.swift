import Foundation

/// Told the products an `SKProductsRequest` found (then `requestDidFinish(_:)`), or why it failed.
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}
