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
        /// StoreKit 1's `applicationUsername`: a UUID becomes the approved transaction's
        /// `appAccountToken`, as it would have at once.
        public var applicationUsername: String?
        /// The developer's verified introductory-offer verdict, applied when the purchase goes ahead.
        public var introductoryOfferAllowed: Bool?
        /// StoreKitTest's `.purchaseDate(_:renewalBehavior:)`, kept for the approval.
        public var purchaseDateMs: Int64?
        /// `.cancelImmediately`, kept for the approval (nil when false, so older records read the same).
        public var cancelsAfterFirstPeriod: Bool?
        init(_ request: PurchaseRequest) {
            bundleId = request.bundleId
            productId = request.productId
            customer = request.customer
            quantity = request.quantity
            appAccountToken = request.appAccountToken
            billingPlanType = request.billingPlanType
            applicationUsername = request.applicationUsername
            introductoryOfferAllowed = request.introductoryOfferAllowed
            purchaseDateMs = request.purchaseDateMs
            cancelsAfterFirstPeriod = request.cancelsAfterFirstPeriod ? true : nil
        }

        /// The purchase to make once it may go ahead: everything the device asked for, so an
        /// approved purchase is the one the customer asked for.
        func purchaseRequest(world: String) -> PurchaseRequest {
            var request = PurchaseRequest(bundleId: bundleId, productId: productId, customer: customer, quantity: quantity,
                                          appAccountToken: appAccountToken)
            request.world = world
            request.billingPlanType = billingPlanType
            request.applicationUsername = applicationUsername
            request.introductoryOfferAllowed = introductoryOfferAllowed
            request.purchaseDateMs = purchaseDateMs
            request.cancelsAfterFirstPeriod = cancelsAfterFirstPeriod ?? false
            return request
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
