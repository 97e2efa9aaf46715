import Foundation
import StoreStorage

/// A purchase waiting for someone: a parent's Ask to Buy answer, or the customer resolving an
/// interrupted purchase (`SKTestTransaction.pendingAskToBuyConfirmation` / `hasPurchaseIssue`).
public struct PendingPurchase: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case askToBuy, interrupted }

    public struct Request: Codable, Sendable, Equatable {
        public var bundleId: String
        public var productId: String
        public var customer: String
        public var quantity: Int
        public var appAccountToken: String?
        public var billingPlanType: String?
        init(_ request: PurchaseRequest) {
            bundleId = request.bundleId
            productId = request.productId
            customer = request.customer
            quantity = request.quantity
            appAccountToken = request.appAccountToken
            billingPlanType = request.billingPlanType
        }
    }

    public var id: String
    public var kind: Kind
    public var request: Request
    public var createdMs: Int64

    static let recordKind = "pending_purchase"

    func record(world: String) -> WorldRecord {
        WorldRecord(world: world, kind: Self.recordKind, key: id,
                    value: String(decoding: (try? PayloadCoding.encoder.encode(self)) ?? Data(), as: UTF8.self))
    }
}
