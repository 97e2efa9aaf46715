import Foundation
import StoreModel

/// `ExtendRenewalDateRequest`. Fields are optional so that a missing one is answered with its
/// own Apple error code rather than a decoding failure.
public struct ExtendRenewalDateRequest: Codable, Sendable, Equatable {
    /// Apple's `extendByDays`: 1 to 90 days; nil when missing or not an integer.
    public var extendByDays: Int64?
    /// Apple's `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int64?
    /// Apple's `requestIdentifier`: the caller's ID for the request; repeating it repeats the first answer.
    public var requestIdentifier: String?

    /// A request built in code; the values are checked when the extension is made.
    public init(extendByDays: Int64?, extendReasonCode: Int64?, requestIdentifier: String?) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }

    /// Reads a request body field by field; a field of the wrong JSON type counts as invalid.
    public init(body: Data) throws(ServerAPIError) {
        guard let fields = JSONValue.object(from: body) else { throw .generalBadRequest }
        extendByDays = fields["extendByDays"]?.integer
        extendReasonCode = fields["extendReasonCode"]?.integer
        if case .string(let text)? = fields["requestIdentifier"] { requestIdentifier = text }
    }
}

/// `ExtendRenewalDateResponse`.
public struct ExtendRenewalDateResponse: Codable, Sendable, Equatable {
    /// The extended subscription's original transaction ID.
    public var originalTransactionId: String
    /// The `webOrderLineItemId` of the subscription's current transaction.
    public var webOrderLineItemId: String
    /// Whether the date moved; always true here, since a refused extension throws instead.
    public var success: Bool
    /// The subscription's new expiration date, in milliseconds.
    public var effectiveDate: Int64

    /// A response with the given values.
    public init(originalTransactionId: String, webOrderLineItemId: String, success: Bool, effectiveDate: Int64) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}

/// `MassExtendRenewalDateRequest`.
public struct MassExtendRenewalDateRequest: Codable, Sendable, Equatable {
    /// Apple's `extendByDays`: 1 to 90 days for every subscriber extended.
    public var extendByDays: Int64?
    /// Apple's `extendReasonCode`, 0–3, as for a single extension.
    public var extendReasonCode: Int64?
    /// Apple's `requestIdentifier`: names the request, for Get Status of Subscription Renewal Date Extensions.
    public var requestIdentifier: String?
    /// Nil (omitted) extends in every storefront.
    public var storefrontCountryCodes: [String]?
    /// The auto-renewable subscription whose active subscribers are extended; "" when sent but not a string.
    public var productId: String?

    /// A request built in code; the values are checked when the extension runs.
    public init(extendByDays: Int64?, extendReasonCode: Int64?, requestIdentifier: String?, storefrontCountryCodes: [String]? = nil, productId: String?) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }

    /// Reads a request body field by field, so a missing or mistyped field gets its own Apple error later.
    public init(body: Data) throws(ServerAPIError) {
        guard let fields = JSONValue.object(from: body) else { throw .generalBadRequest }
        extendByDays = fields["extendByDays"]?.integer
        extendReasonCode = fields["extendReasonCode"]?.integer
        if case .string(let text)? = fields["requestIdentifier"] { requestIdentifier = text }
        if case .string(let text)? = fields["productId"] { productId = text } else if fields["productId"] != nil { productId = "" }
        switch fields["storefrontCountryCodes"] {
        case nil, .null?: storefrontCountryCodes = nil
        case .array(let items)?:
            var codes: [String] = []
            for item in items {
                guard case .string(let code) = item else { throw RenewalExtensionRules.invalidStorefrontCountryCode }
                codes.append(code)
            }
            storefrontCountryCodes = codes
        default: throw RenewalExtensionRules.invalidStorefrontCountryCode
        }
    }
}

/// `MassExtendRenewalDateResponse`.
public struct MassExtendRenewalDateResponse: Codable, Sendable, Equatable {
    /// The request's identifier, to ask for its status with.
    public var requestIdentifier: String
    /// A response naming the request.
    public init(requestIdentifier: String) { self.requestIdentifier = requestIdentifier }
}

/// `MassExtendRenewalDateStatusResponse`.
public struct MassExtendRenewalDateStatusResponse: Codable, Sendable, Equatable {
    /// The mass extension request this status is of.
    public var requestIdentifier: String
    /// Whether every subscriber has been processed; always true here, where the request completes
    /// before it is answered.
    public var complete: Bool
    /// When it completed, in milliseconds on the world's clock.
    public var completeDate: Int64?
    /// Subscribers whose renewal date moved.
    public var succeededCount: Int64?
    /// Active subscribers that could not be extended (in a free trial or at the extension limit, say).
    public var failedCount: Int64?

    /// A status with the given values.
    public init(requestIdentifier: String, complete: Bool, completeDate: Int64?, succeededCount: Int64?, failedCount: Int64?) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}

extension AppStore {
    // MARK: Extend a Subscription Renewal Date

    /// Extend a Subscription Renewal Date (`PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`).
    /// Throws `ServerAPIError`: 4000008, 4000009, 4000010, 4000011, 4040005, 4030004, 4030005, 4030007, 4040003.
    public func extendRenewalDate(originalTransactionId: String, request: ExtendRenewalDateRequest, caller: ServerAPICaller) async throws -> ExtendRenewalDateResponse {
        try await extendRenewalDate(originalTransactionId: originalTransactionId, request: request, bundleId: caller.bundleId, world: caller.world)
    }

    func extendRenewalDate(originalTransactionId: String, request: ExtendRenewalDateRequest, bundleId: String, world: String) async throws -> ExtendRenewalDateResponse {
        let app = try extensionApp(bundleId)
        let originalId = try TransactionNumber.parse(originalTransactionId, error: .invalidOriginalTransactionId)
        let order = try Self.extensionOrder(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        return try await self.loadedWorld(world).extendRenewalDate(bundleId: app.bundleId, originalTransactionId: originalId, order: order)
    }

    // MARK: Extend Subscription Renewal Dates for All Active Subscribers

    /// Extend Subscription Renewal Dates for All Active Subscribers (`POST /inApps/v1/subscriptions/extend/mass`).
    /// Throws `ServerAPIError`: 4000009, 4000010, 4000011, 4000023, 4000027, 4000028, 4040003.
    public func extendRenewalDatesForAllActiveSubscribers(_ request: MassExtendRenewalDateRequest, caller: ServerAPICaller) async throws -> MassExtendRenewalDateResponse {
        try await extendRenewalDatesForAllActiveSubscribers(request, bundleId: caller.bundleId, world: caller.world)
    }

    func extendRenewalDatesForAllActiveSubscribers(_ request: MassExtendRenewalDateRequest, bundleId: String, world: String) async throws -> MassExtendRenewalDateResponse {
        let app = try extensionApp(bundleId)
        let order = try Self.extensionOrder(days: request.extendByDays, reason: request.extendReasonCode, requestIdentifier: request.requestIdentifier)
        let productId = try Self.extensionProduct(request.productId, app: app)
        let storefronts = try RenewalExtensionRules.checkStorefronts(request.storefrontCountryCodes)
        let status = try await self.loadedWorld(world).massExtend(bundleId: app.bundleId, productId: productId, storefronts: storefronts, order: order)
        return MassExtendRenewalDateResponse(requestIdentifier: status.requestIdentifier)
    }

    // MARK: Get Status of Subscription Renewal Date Extensions

    /// Get Status of Subscription Renewal Date Extensions (`GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`).
    /// Throws `ServerAPIError`: 4000011, 4000023, 4040009, 4040003.
    public func massExtensionStatus(productId: String, requestIdentifier: String, caller: ServerAPICaller) async throws -> MassExtendRenewalDateStatusResponse {
        try await massExtensionStatus(productId: productId, requestIdentifier: requestIdentifier, bundleId: caller.bundleId, world: caller.world)
    }

    func massExtensionStatus(productId: String, requestIdentifier: String, bundleId: String, world: String) async throws -> MassExtendRenewalDateStatusResponse {
        let app = try extensionApp(bundleId)
        let identifier = try RenewalExtensionRules.checkRequestIdentifier(requestIdentifier)
        guard !productId.isEmpty, productId.count <= 255 else { throw ServerAPIError.invalidProductId }
        guard let status = try await self.loadedWorld(world).massExtensionStatus(bundleId: app.bundleId, productId: productId, requestIdentifier: identifier) else {
            throw RenewalExtensionRules.statusRequestNotFound
        }
        return status
    }

    // MARK: Checks

    func extensionApp(_ bundleId: String) throws(ServerAPIError) -> StoreApp {
        do { return try app(bundleId) } catch { throw .appNotFound }
    }

    static func extensionOrder(days: Int64?, reason: Int64?, requestIdentifier: String?) throws(ServerAPIError) -> World.ExtensionOrder {
        World.ExtensionOrder(
            days: try RenewalExtensionRules.checkDays(days),
            reasonCode: try RenewalExtensionRules.checkReason(reason),
            requestIdentifier: try RenewalExtensionRules.checkRequestIdentifier(requestIdentifier))
    }

    /// The mass extension names one auto-renewable product of the app.
    static func extensionProduct(_ productId: String?, app: StoreApp) throws(ServerAPIError) -> String {
        guard let productId, !productId.isEmpty, app.catalog.product(productId)?.kind == .autoRenewable else { throw .invalidProductId }
        return productId
    }
}
