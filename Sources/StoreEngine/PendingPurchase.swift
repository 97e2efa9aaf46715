import Foundation
import StoreStorage

/// A purchase waiting for someone: a parent's Ask to Buy answer, or the customer resolving an
/// interrupted purchase (`SKTestTransaction.pendingAskToBuyConfirmation` / `hasPurchaseIssue`).
public struct PendingPurchase: Codable, Sendable, Equatable {
    /// What the purchase waits for: a parent's Ask to Buy answer, or the customer resolving an issue.
    public enum Kind: String, Codable, Sendable { case askToBuy, interrupted }

    /// What is kept of the purchase request, to complete it later.
    public struct Request: Codable, Sendable, Equatable {
        /// The app bought in.
        public var bundleId: String
        /// The product asked for.
        public var productId: String
        /// The customer who asked.
        public var customer: String
        /// How many were asked for.
        public var quantity: Int
        /// The app's UUID for the customer, if it passed one.
        public var appAccountToken: String?
        /// The billing plan chosen for a product with a 12-month commitment plan, if any.
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

    /// The pending purchase's ID, which the Transaction Manager's actions take.
    public var id: String
    /// Whether it waits for Ask to Buy or for an issue to be resolved.
    public var kind: Kind
    /// The purchase to make once it may go ahead.
    public var request: Request
    /// When the purchase was asked for, on the world's clock.
    public var createdMs: Int64

    static let recordKind = "pending_purchase"

    func record(world: String) -> WorldRecord {
        WorldRecord(world: world, kind: Self.recordKind, key: id,
                    value: String(decoding: (try? PayloadCoding.encoder.encode(self)) ?? Data(), as: UTF8.self))
    }
}
