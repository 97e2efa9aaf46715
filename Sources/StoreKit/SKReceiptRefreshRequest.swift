import Foundation
import OpenStoreKit

/// Asks the store for a fresh app receipt and writes it to the receipt file
/// (`Bundle.main.openStoreReceiptURL`, see `AppReceiptFile`); then `requestDidFinish(_:)`, or
/// `request(_:didFailWithError:)` with an `SKError`.
open class SKReceiptRefreshRequest: SKRequest, @unchecked Sendable {
    private let properties: Unchecked<[String: Any]?>

    /// `properties` are the sandbox's test properties (`SKReceiptPropertyIsExpired`, …). The
    /// store always builds the customer's real receipt, so they are kept but not applied.
    public init(receiptProperties properties: [String: Any]?) {
        self.properties = Unchecked(properties)
        super.init()
    }

    /// A refresh with no test properties; call `start()` to send.
    public override init() {
        properties = Unchecked(nil)
        super.init()
    }

    /// Mirrors StoreKit's `SKReceiptRefreshRequest.receiptProperties`: the properties it was made with, unused.
    open var receiptProperties: [String: Any]? { properties.value }

    override func perform(_ connection: StoreConnection) async {
        do {
            try await AppReceiptFile.refresh(connection)
            await deliver { self.delegate?.requestDidFinish(self) }
        } catch {
            let failure = SKError(storeKit: error)
            await deliver { self.fail(failure) }
        }
    }
}

/// Receipt property keys for `SKReceiptRefreshRequest(receiptProperties:)` (sandbox only).
public let SKReceiptPropertyIsExpired = "expired"
/// Mirrors StoreKit's `SKReceiptPropertyIsRevoked`: asks the sandbox for a revoked receipt (kept, not applied).
public let SKReceiptPropertyIsRevoked = "revoked"
/// Mirrors StoreKit's `SKReceiptPropertyIsVolumePurchase`: asks the sandbox for a volume-purchase receipt (kept, not applied).
public let SKReceiptPropertyIsVolumePurchase = "vpp"
