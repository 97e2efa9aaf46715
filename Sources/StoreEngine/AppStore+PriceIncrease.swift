import Foundation
import StoreModel

extension AppStore {
    func requestPriceIncrease(transactionId: String, newPrice: String, mode: PriceIncreaseMode = .consent,
                                     world: String) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let price = try PriceIncreaseRules.milliunits(newPrice)
        let world = try await self.loadedWorld(world)
        let chain = try await world.requestPriceIncrease(transactionId: id, newPriceMilliunits: price, mode: mode)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    func consentToPriceIncrease(transactionId: String, world: String) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let world = try await self.loadedWorld(world)
        let chain = try await world.consentToPriceIncrease(transactionId: id)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    func declinePriceIncrease(transactionId: String, world: String) async throws -> Signed<RenewalInfoPayload> {
        let id = try Self.transactionId(transactionId)
        let world = try await self.loadedWorld(world)
        let chain = try await world.declinePriceIncrease(transactionId: id)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }
}
