import Foundation
import StoreModel

/// An offer code as the admin API shows it.
public struct OfferCodeInfo: Codable, Sendable, Equatable {
    public var code: String
    /// `oneTime` or `custom`.
    public var kind: String
    public var productId: String
    public var offer: String?
    public var maxRedemptions: Int?
    public var redemptions: Int
    /// World time, ms.
    public var expiresAt: Int64?
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
    /// `Product.purchase(options:)` with an offer option (or none). A refused offer throws `OfferError`.
    public func purchase(_ request: PurchaseRequest, offer: PurchaseOfferRequest?) async throws -> PurchaseOutcome {
        let world = try await world(request.world)
        let result = try await world.purchase(request, offer: offer)
        return try await outcome(result, world: world)
    }

    /// A customer redeems an offer code: the code's subscription with its offer, by Apple's rules
    /// (eligibility, expiry, redemption limit). A code redeemed by a current subscriber for the
    /// current plan applies at the next renewal; the answer then carries the current transaction.
    public func redeemOfferCode(_ code: String, bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> PurchaseOutcome {
        let world = try await self.world(world)
        let result = try await world.redeem(code: code, bundleId: try app(bundleId).bundleId, customer: customer)
        return try await outcome(result, world: world)
    }

    /// Makes codes for one of the app's code offers (App Store Connect's one-time or custom codes).
    public func createOfferCodes(_ request: OfferCodeBatchRequest, bundleId: String, world: String = AppStore.defaultWorld) async throws -> [OfferCodeInfo] {
        try await self.world(world).createOfferCodes(request, bundleId: try app(bundleId).bundleId).map(OfferCodeInfo.init)
    }

    public func offerCodes(bundleId: String, world: String = AppStore.defaultWorld) async throws -> [OfferCodeInfo] {
        try await self.world(world).offerCodes(bundleId: try app(bundleId).bundleId).map(OfferCodeInfo.init)
    }
}
