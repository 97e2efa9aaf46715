import Foundation
import StoreModel

/// An offer code as the admin API shows it.
public struct OfferCodeInfo: Codable, Sendable, Equatable {
    /// The code as a customer types it.
    public var code: String
    /// `oneTime` or `custom`.
    public var kind: String
    /// The subscription the code's offer belongs to.
    public var productId: String
    /// The code offer's reference name (or its internal ID when it has none).
    public var offer: String?
    /// How many times it can be redeemed: 1 for one-time codes, nil for a custom code without a limit.
    public var maxRedemptions: Int?
    /// How many times it has been redeemed.
    public var redemptions: Int
    /// World time, ms.
    public var expiresAt: Int64?
    /// When it was made, world time in ms.
    public var createdAt: Int64

    init(_ code: OfferCode) {
        self.code = code.code
        kind = code.kind.rawValue
        productId = code.productId
        offer = code.offerReferenceName ?? code.offerInternalID
        maxRedemptions = code.maxRedemptions
        redemptions = code.redemptions
        expiresAt = code.expiresMs
        createdAt = code.createdMs
    }
}

extension AppStore {
    func redeemOfferCode(_ code: String, bundleId: String, customer: String, world: String) async throws -> PurchaseOutcome {
        let world = try await self.loadedWorld(world)
        let result = try await world.redeem(code: code, bundleId: try app(bundleId).bundleId, customer: customer)
        return try await outcome(result, world: world)
    }

    func createOfferCodes(_ request: OfferCodeBatchRequest, bundleId: String, world: String) async throws -> [OfferCodeInfo] {
        try await self.loadedWorld(world).createOfferCodes(request, bundleId: try app(bundleId).bundleId).map(OfferCodeInfo.init)
    }

    func offerCodes(bundleId: String, world: String) async throws -> [OfferCodeInfo] {
        try await self.loadedWorld(world).offerCodes(bundleId: try app(bundleId).bundleId).map(OfferCodeInfo.init)
    }
}
