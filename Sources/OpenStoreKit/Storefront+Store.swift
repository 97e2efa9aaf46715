import Foundation
import StoreKitTypes
import StoreModel

extension StoreKitTypes.Storefront {
    /// `Storefront.current`: the storefront of the customer's account.
    public static var current: StoreKitTypes.Storefront? {
        get async {
            do {
                let connection = try OpenStoreKit.connection()
                _ = try await connection.start()
                guard let code = try await connection.customerStorefront(), let front = StoreModel.Storefront.lookup(code) else { return nil }
                return StoreKitTypes.Storefront(id: front.id, countryCode: front.countryCode, currency: Locale.Currency(front.currency))
            } catch {
                OpenStoreKit.logger.error("Storefront.current: \(error)")
                return nil
            }
        }
    }
}
