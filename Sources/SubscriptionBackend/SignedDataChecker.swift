import Foundation
import StoreModel
import StoreSigning

/// Verifies signed App Store data for one app the way Apple's `SignedDataVerifier` does
/// (reference §5.2): the chain to one of the app's trusted roots at the payload's `signedDate`,
/// then the bundle ID, the environment, and (in Production) the app's Apple ID.
public struct SignedDataChecker: Sendable {
    /// The app whose bundle ID, accepted environments and Apple ID every payload must match.
    public let app: AppConfiguration
    private let verifiers: [JWSVerifier]

    /// One `JWSVerifier` per trusted root; a payload passes if it chains to any of them.
    public init(app: AppConfiguration, rootsDER: [[UInt8]]) throws {
        self.app = app
        self.verifiers = try rootsDER.map { try JWSVerifier(rootCertificateDER: $0) }
    }

    /// The payload bytes if the JWS verifies with any trusted root.
    func verifiedPayload(_ jws: String) throws(SignedDataRejection) -> [UInt8] {
        var firstError: JWSError?
        for verifier in verifiers {
            do {
                return try verifier.verify(jws)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw .verificationFailed(firstError.map { "\($0)" } ?? "no trusted root configured")
    }

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(SignedDataRejection) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .malformed("payload does not decode: \(error)")
        }
    }

    private func checkEnvironment(_ environment: String?) throws(SignedDataRejection) {
        guard let environment, app.environments.contains(environment) else {
            throw .wrongEnvironment("environment \(environment ?? "(none)") is not accepted (\(app.environments.joined(separator: ", ")))")
        }
    }

    /// A signed transaction (`JWSTransaction`): chain, bundle ID, then environment.
    public func transaction(_ jws: String) throws(SignedDataRejection) -> SignedTransaction {
        let payload = try verifiedPayload(jws)
        let fields = try decode(TransactionFields.self, payload)
        guard fields.bundleId == app.bundleId else { throw .wrongBundle("bundleId \(fields.bundleId ?? "(none)") is not \(app.bundleId)") }
        try checkEnvironment(fields.environment)
        guard fields.transactionId != nil, fields.originalTransactionId != nil, fields.productId != nil else {
            throw .malformed("transaction lacks transactionId, originalTransactionId or productId")
        }
        return SignedTransaction(jws: jws, fields: fields)
    }

    /// A signed app transaction (`AppTransaction.jwsRepresentation`), as Apple's
    /// `verifyAndDecodeAppTransaction` checks it: chain, bundle ID and (in Production) the app's
    /// Apple ID, then the environment, which an app transaction names `receiptType`.
    public func appTransaction(_ jws: String) throws(SignedDataRejection) -> AppTransactionFields {
        let payload = try verifiedPayload(jws)
        let fields = try decode(AppTransactionFields.self, payload)
        guard fields.bundleId == app.bundleId else { throw .wrongBundle("bundleId \(fields.bundleId ?? "(none)") is not \(app.bundleId)") }
        if fields.receiptType == "Production", fields.appAppleId != app.appAppleId {
            throw .wrongBundle("appAppleId \(fields.appAppleId.map(String.init) ?? "(none)") is not \(app.appAppleId.map(String.init) ?? "(none)")")
        }
        try checkEnvironment(fields.receiptType)
        guard fields.originalApplicationVersion != nil, fields.originalPurchaseDate != nil else {
            throw .malformed("app transaction lacks originalApplicationVersion or originalPurchaseDate")
        }
        return fields
    }

    /// Signed renewal info: chain, then environment (Apple checks no bundle ID there).
    public func renewalInfo(_ jws: String) throws(SignedDataRejection) -> SignedRenewalInfo {
        let payload = try verifiedPayload(jws)
        let fields = try decode(RenewalFields.self, payload)
        try checkEnvironment(fields.environment)
        guard fields.originalTransactionId != nil else { throw .malformed("renewal info lacks originalTransactionId") }
        return SignedRenewalInfo(jws: jws, fields: fields)
    }

    /// A notification and every JWS nested in it.
    public func notification(_ jws: String) throws(SignedDataRejection) -> VerifiedNotification {
        let payload = try verifiedPayload(jws)
        let fields = try decode(NotificationFields.self, payload)
        // Apple's order: data, else summary, else externalPurchaseToken, else appData.
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        if let data = fields.data {
            (bundleId, appAppleId, environment) = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary = fields.summary {
            (bundleId, appAppleId, environment) = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = fields.externalPurchaseToken {
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") ?? false
            (bundleId, appAppleId, environment) = (token.bundleId, token.appAppleId, sandbox ? "Sandbox" : "Production")
        } else if let appData = fields.appData {
            (bundleId, appAppleId, environment) = (appData.bundleId, appData.appAppleId, appData.environment)
        } else {
            (bundleId, appAppleId, environment) = (nil, nil, nil)
        }
        guard bundleId == app.bundleId else { throw .wrongBundle("bundleId \(bundleId ?? "(none)") is not \(app.bundleId)") }
        if environment == "Production", appAppleId != app.appAppleId {
            throw .wrongBundle("appAppleId \(appAppleId.map(String.init) ?? "(none)") is not \(app.appAppleId.map(String.init) ?? "(none)")")
        }
        try checkEnvironment(environment)
        guard let uuid = fields.notificationUUID, !uuid.isEmpty, let type = fields.notificationType else {
            throw .malformed("notification lacks notificationUUID or notificationType")
        }
        let transaction = try fields.data?.signedTransactionInfo.map { jws throws(SignedDataRejection) in try self.transaction(jws) }
        let renewal = try fields.data?.signedRenewalInfo.map { jws throws(SignedDataRejection) in try self.renewalInfo(jws) }
        if let transaction, transaction.fields.environment != environment {
            throw .wrongEnvironment("the nested transaction's environment differs from the notification's")
        }
        return VerifiedNotification(
            uuid: uuid.lowercased(), type: type, subtype: fields.subtype, signedDate: fields.signedDate ?? 0,
            environment: environment ?? "", transaction: transaction, renewal: renewal,
            consumptionRequestReason: fields.data?.consumptionRequestReason)
    }
}

/// Why signed data was refused. All are the sender's fault: 4xx, nothing stored.
public enum SignedDataRejection: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case verificationFailed(String)
    case wrongBundle(String)
    case wrongEnvironment(String)

    /// The short reason the HTTP error and the rejection log carry; `wrongBundle` is reported as `wrongApp`.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .verificationFailed: "verificationFailed"
        case .wrongBundle: "wrongApp"
        case .wrongEnvironment: "wrongEnvironment"
        }
    }

    /// The detail: what was expected and what came.
    public var description: String {
        switch self {
        case .malformed(let m), .verificationFailed(let m), .wrongBundle(let m), .wrongEnvironment(let m): m
        }
    }
}
