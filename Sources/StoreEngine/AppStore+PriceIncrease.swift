import Foundation
import StoreModel

extension AppStore {
    /// `requestPriceIncreaseConsentForTransaction`, extended with the price and with notify-only
    /// increases. `newPrice` is a decimal string in the subscriber's currency ("5.99").
    /// Returns the renewal info as it now reads (`renewalPrice` shows the new price,
    /// `priceIncreaseStatus` 0 pending or 1 accepted).
    public func requestPriceIncrease(transactionId: String, newPrice: String, mode: PriceIncreaseMode = .consent,
                                     world: String = AppStore.defaultWorld) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let price = try PriceIncreaseRules.milliunits(newPrice)
        let world = try await self.world(world)
        let chain = try await world.requestPriceIncrease(transactionId: id, newPriceMilliunits: price, mode: mode)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    /// `consentToPriceIncreaseForTransaction`.
    public func consentToPriceIncrease(transactionId: String, world: String = AppStore.defaultWorld) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let world = try await self.world(world)
        let chain = try await world.consentToPriceIncrease(transactionId: id)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    /// `declinePriceIncreaseForTransaction`: auto-renew turns off; the subscription expires at its
    /// renewal date with `expirationIntent` 3 unless the customer consents first.
    public func declinePriceIncrease(transactionId: String, world: String = AppStore.defaultWorld) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let world = try await self.world(world)
        let chain = try await world.declinePriceIncrease(transactionId: id)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }
}
