import Foundation
import StoreEngine
import StoreModel

/// What the admin API answers with. Shapes are documented in `openapi.json` (tag "Admin API");
/// they are views of engine values, flattened for people and scripts (no Swift enum encodings).
enum AdminView {
    static func isoDate(_ ms: Int64) -> String {
        Date(timeIntervalSince1970: Double(ms) / 1000).formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A world: its clock and its Transaction Manager switches.
    struct World: Encodable {
        var id: String
        var createdMs: Int64
        var nowMs: Int64
        var now: String
        var rate: String
        var clockSpeed: Double
        var settings: Settings

        init(_ info: WorldInfo) {
            id = info.id
            createdMs = info.createdMs
            nowMs = info.nowMs
            now = isoDate(info.nowMs)
            rate = info.rate
            clockSpeed = info.clockSpeed
            settings = Settings(info.settings)
        }
    }

    /// Switches left out fall back to the app catalog's `settings`.
    struct Settings: Encodable {
        var askToBuy: Bool?
        var failRenewals: Bool?
        var billingGracePeriod: Bool?
        var interruptedPurchases: Bool?
        var failTransactions: Bool?
        var failureError: String?
        var renewalLimit: Int?
        var simulatedErrors: [String: String]

        init(_ settings: WorldSettings) {
            askToBuy = settings.askToBuy
            failRenewals = settings.failRenewals
            billingGracePeriod = settings.billingGracePeriod
            interruptedPurchases = settings.interruptedPurchases
            failTransactions = settings.failTransactions
            failureError = settings.failureError
            renewalLimit = settings.renewalLimit
            simulatedErrors = settings.simulatedErrors
        }
    }

    struct WorldList: Encodable { var worlds: [World] }

    struct Deleted: Encodable { var id: String; var deleted = true }

    /// A world's clock.
    struct Time: Encodable {
        var world: String
        var nowMs: Int64
        var now: String
        var rate: String
        var clockSpeed: Double
        /// How far the last advance moved the clock; only in answers to an advance.
        var advancedMs: Int64?

        init(_ info: WorldInfo, advancedMs: Int64? = nil) {
            world = info.id
            nowMs = info.nowMs
            now = isoDate(info.nowMs)
            rate = info.rate
            clockSpeed = info.clockSpeed
            self.advancedMs = advancedMs
        }
    }

    struct SimulatedError: Encodable {
        var api: String
        var slug: String
        var error: String?
    }

    struct SimulatedErrors: Encodable { var simulatedErrors: [SimulatedError] }

    struct Declined: Encodable { var status = "declined"; var pendingId: String }

    struct TransactionAnswer: Encodable {
        var signedTransaction: String
        var transaction: TransactionPayload

        init(_ signed: Signed<TransactionPayload>) {
            signedTransaction = signed.jws
            transaction = signed.payload
        }
    }

    struct RenewalInfoAnswer: Encodable {
        var signedRenewalInfo: String
        var renewalInfo: RenewalInfoPayload

        init(_ signed: Signed<RenewalInfoPayload>) {
            signedRenewalInfo = signed.jws
            renewalInfo = signed.payload
        }
    }

    struct PendingList: Encodable { var pendingPurchases: [PendingPurchase] }

    struct TransactionDeleted: Encodable {
        var transactionId: String
        var deleted = true
    }

    struct Cleared: Encodable {
        var bundleId: String
        var customer: String?
        var cleared = true
    }

    /// One subscription group's status, after the Server API's Get All Subscription Statuses,
    /// with the payloads decoded alongside the JWS.
    struct SubscriptionStatus: Encodable {
        var subscriptionGroupIdentifier: String
        var status: Int
        var originalTransactionId: String
        var signedTransactionInfo: String
        var transaction: TransactionPayload
        var signedRenewalInfo: String
        var renewalInfo: RenewalInfoPayload

        init(_ item: SubscriptionStatusItem) {
            subscriptionGroupIdentifier = item.groupId
            status = item.status.rawValue
            originalTransactionId = item.originalTransactionId
            signedTransactionInfo = item.transaction.jws
            transaction = item.transaction.payload
            signedRenewalInfo = item.renewalInfo.jws
            renewalInfo = item.renewalInfo.payload
        }
    }

    struct Subscriptions: Encodable {
        var bundleId: String
        var customer: String
        var subscriptions: [SubscriptionStatus]
    }

    /// An App Store event: what server notifications are made from.
    struct Event: Encodable {
        var seq: Int64
        var bundleId: String
        var customer: String
        var type: String
        var subtype: String?
        var transactionId: String?
        var originalTransactionId: String?
        var atMs: Int64
        var data: String?

        init(_ record: StoreEvent) {
            seq = record.seq
            bundleId = record.bundleId
            customer = record.customer
            type = record.type
            subtype = record.subtype
            transactionId = record.transactionId.map(String.init)
            originalTransactionId = record.originalId.map(String.init)
            atMs = record.atMs
            data = record.data
        }
    }

    struct Events: Encodable {
        var events: [Event]
        /// Pass as `after` to get only newer events.
        var lastSeq: Int64
    }
}
