import Foundation
import StoreModel
import StoreStorage

/// `ConsumptionRequest` (Send Consumption Information, v2), checked as Apple documents it.
public struct ConsumptionRequestV2: Codable, Sendable, Equatable {
    /// The `deliveryStatus` values Apple lists for `ConsumptionRequest`.
    public static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]
    /// The `refundPreference` values Apple lists for `ConsumptionRequest`.
    public static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// Apple's `customerConsented`; a request is refused unless it is true.
    public var customerConsented: Bool
    /// Apple's `sampleContentProvided`: whether the customer could try the content before buying.
    public var sampleContentProvided: Bool
    /// Apple's `deliveryStatus`: `DELIVERED` or one of the `UNDELIVERED_…` reasons.
    public var deliveryStatus: String
    /// Milliunits of a percent: 0…100000.
    public var consumptionPercentage: Int64?
    /// Apple's optional `refundPreference`: `DECLINE`, `GRANT_FULL` or `GRANT_PRORATED`.
    public var refundPreference: String?

    /// Reads and checks a request body, throwing Apple's error for the first field that is wrong.
    public init(body: Data) throws(ServerAPIError) {
        guard let fields = JSONValue.object(from: body) else { throw .generalBadRequest }
        guard case .bool(true)? = fields["customerConsented"] else { throw .invalidCustomerConsented }
        guard case .bool(let sample)? = fields["sampleContentProvided"] else { throw .invalidSampleContentProvided }
        guard case .string(let delivery)? = fields["deliveryStatus"], Self.deliveryStatuses.contains(delivery) else {
            throw .invalidDeliveryStatus
        }
        customerConsented = true
        sampleContentProvided = sample
        deliveryStatus = delivery
        switch fields["refundPreference"] {
        case nil, .null?: refundPreference = nil
        case .string(let preference)? where Self.refundPreferences.contains(preference): refundPreference = preference
        default: throw .invalidRefundPreference
        }
        switch fields["consumptionPercentage"] {
        case nil, .null?: consumptionPercentage = nil
        case let value?:
            guard let percentage = value.integer, (0...100_000).contains(percentage) else { throw .consumptionPercentageOutOfRange }
            if delivery != "DELIVERED" && percentage != 0 { throw .undeliveredConsumptionPercentageNonZero }
            consumptionPercentage = percentage
        }
    }
}

/// `ConsumptionRequestV1` (the deprecated v1 endpoint): every field but `refundPreference` is
/// required, each within its enum's range.
public struct ConsumptionRequestV1: Codable, Sendable, Equatable {
    /// Apple's `customerConsented`; a request is refused unless it is true.
    public var customerConsented: Bool
    /// Apple's `consumptionStatus`, 0–3: undeclared, not, partially or fully consumed.
    public var consumptionStatus: Int64
    /// Apple's `platform`, 0–2: undeclared, an Apple platform, or another.
    public var platform: Int64
    /// Apple's `sampleContentProvided`.
    public var sampleContentProvided: Bool
    /// Apple's `deliveryStatus`, 0–5: delivered and working, or why it was not.
    public var deliveryStatus: Int64
    /// Apple's `appAccountToken`: a UUID (kept in lowercase) or empty.
    public var appAccountToken: String
    /// Apple's `accountTenure`, 0–7: an age band of the customer's account.
    public var accountTenure: Int64
    /// Apple's `playTime`, 0–7: a band of time spent in the app.
    public var playTime: Int64
    /// Apple's `lifetimeDollarsRefunded`, 0–7: a band of what the customer was refunded.
    public var lifetimeDollarsRefunded: Int64
    /// Apple's `lifetimeDollarsPurchased`, 0–7: a band of what the customer spent.
    public var lifetimeDollarsPurchased: Int64
    /// Apple's `userStatus`, 0–4: the state of the customer's account with the app.
    public var userStatus: Int64
    /// Apple's optional `refundPreference` (v1), 0–3.
    public var refundPreference: Int64?

    /// Reads and checks a request body, throwing Apple's error for the first field that is missing or out of range.
    public init(body: Data) throws(ServerAPIError) {
        guard let fields = JSONValue.object(from: body) else { throw .generalBadRequest }
        func int(_ name: String, _ range: ClosedRange<Int64>, _ error: ServerAPIError) throws(ServerAPIError) -> Int64 {
            guard let value = fields[name]?.integer, range.contains(value) else { throw error }
            return value
        }
        guard case .bool(true)? = fields["customerConsented"] else { throw .invalidCustomerConsented }
        customerConsented = true
        consumptionStatus = try int("consumptionStatus", 0...3, .invalidConsumptionStatus)
        platform = try int("platform", 0...2, .invalidPlatform)
        guard case .bool(let sample)? = fields["sampleContentProvided"] else { throw .invalidSampleContentProvided }
        sampleContentProvided = sample
        deliveryStatus = try int("deliveryStatus", 0...5, .invalidDeliveryStatus)
        guard case .string(let token)? = fields["appAccountToken"], token.isEmpty || UUID(uuidString: token) != nil else {
            throw .invalidAppAccountToken
        }
        appAccountToken = token.lowercased()
        accountTenure = try int("accountTenure", 0...7, .invalidAccountTenure)
        playTime = try int("playTime", 0...7, .invalidPlayTime)
        lifetimeDollarsRefunded = try int("lifetimeDollarsRefunded", 0...7, .invalidLifetimeDollarsRefunded)
        lifetimeDollarsPurchased = try int("lifetimeDollarsPurchased", 0...7, .invalidLifetimeDollarsPurchased)
        userStatus = try int("userStatus", 0...4, .invalidUserStatus)
        switch fields["refundPreference"] {
        case nil, .null?: refundPreference = nil
        default: refundPreference = try int("refundPreference", 0...3, .invalidRefundPreference)
        }
    }
}

extension AppStore {
    /// Send Consumption Information (v2): any product type; kept as the transaction's latest
    /// consumption information, for the refund decision.
    public func sendConsumptionInformation(transactionId: String, body: Data, caller: ServerAPICaller) async throws {
        _ = try TransactionNumber.parse(transactionId)
        let request = try ConsumptionRequestV2(body: body)
        let found = try await serverAPITransaction(transactionId, caller: caller)
        guard found.record.ownership != InAppOwnershipType.familyShared.rawValue else { throw ServerAPIError.familyTransactionNotSupported }
        if request.consumptionPercentage != nil && found.record.productKind == ProductKind.autoRenewable.rawValue {
            throw ServerAPIError.consumptionPercentageAutoRenewableSubscription
        }
        try await saveConsumption(request, version: 2, record: found.record, world: caller.world)
    }

    /// Send Consumption Information V1 (deprecated): consumables and auto-renewable subscriptions.
    public func sendConsumptionData(transactionId: String, body: Data, caller: ServerAPICaller) async throws {
        _ = try TransactionNumber.parse(transactionId)
        let request = try ConsumptionRequestV1(body: body)
        let found = try await serverAPITransaction(transactionId, caller: caller)
        let kind = found.record.productKind
        guard kind == ProductKind.consumable.rawValue || kind == ProductKind.autoRenewable.rawValue else {
            throw ServerAPIError.invalidTransactionTypeNotSupported
        }
        try await saveConsumption(request, version: 1, record: found.record, world: caller.world)
    }

    func consumptionInformation(transactionId: Int64, world: String) async throws -> ConsumptionInformation? {
        try await database.consumptionInfo(world: world, transactionId: transactionId).map(ConsumptionInformation.init)
    }

    private func saveConsumption(_ request: some Encodable, version: Int, record: TransactionRecord, world: String) async throws {
        let json = String(decoding: try PayloadCoding.encoder.encode(request), as: UTF8.self)
        try await database.saveConsumptionInfo(ConsumptionInfoRecord(
            world: world, transactionId: record.id, version: version, body: json, receivedMs: try await nowMs(world)))
    }
}
