import Foundation
import StoreKitTypes

extension StoreConnection {
    /// The app receipt as the store builds it now for this customer: the bytes of the file at
    /// `Bundle.main.appStoreReceiptURL` on a device (PKCS#7, Apple's receipt fields; see
    /// docs/receipts.md). The original In-App Purchase API (`import StoreKit`) writes it to a file
    /// and refreshes it after purchases and restores, as a device does.
    public func appReceipt() async throws -> Data {
        _ = try await start()
        struct Body: Decodable { var receiptData: String }
        let body = try decode(Body.self, try await send(.GET, customer + "/receipt"))
        guard let data = Data(base64Encoded: body.receiptData) else {
            throw StoreKitError.systemError(OpenStoreKitError.badResponse("the receipt is not base64"))
        }
        return data
    }
}
