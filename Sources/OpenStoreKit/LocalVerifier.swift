import Foundation
import Logging
import StoreKitTypes
import StoreSigning

/// Verifies signed data on the client, as StoreKit does on a device: the `x5c` chain up to the
/// pinned root and the ES256 signature (StoreSigning's `JWSVerifier`, the checks Apple's
/// `SignedDataVerifier` makes), then that it was issued for this app (bundle ID) and environment.
/// Public so a tool can verify signed data from a store the same way without a connection (the
/// benchmark does).
public struct LocalVerifier: Sendable {
    let jws: JWSVerifier
    let bundleID: String
    let environment: String
    let logger: Logger

    init(jws: JWSVerifier, bundleID: String, environment: String, logger: Logger) {
        self.jws = jws
        self.bundleID = bundleID
        self.environment = environment
        self.logger = logger
    }

    /// Trusts `rootCertificateDER` and accepts data for `bundleID` in `environment`.
    public init(rootCertificateDER: [UInt8], bundleID: String, environment: AppStore.Environment) throws {
        self.init(jws: try JWSVerifier(rootCertificateDER: rootCertificateDER), bundleID: bundleID, environment: environment.rawValue,
                  logger: OpenStoreKit.logger)
    }

    /// Signed data that cannot be decoded at all, so there is no value to call `.unverified`.
    public struct Undecodable: Error, CustomStringConvertible {
        /// Why decoding failed: not a compact JWS, or a payload that is not JSON or lacks required fields.
        public var reason: String
        /// The same text as `reason`.
        public var description: String { reason }
    }

    /// A signed transaction (`signedTransactionInfo`) as StoreKit's `VerificationResult<Transaction>`:
    /// verified only if the signature checks out and it is for this app and environment.
    public func transaction(_ compact: String) throws(Undecodable) -> VerificationResult<Transaction> {
        try verify(compact, decode: Transaction.init(payloadJSON:jws:), bundleID: { $0.appBundleID }, environment: { $0.environment.rawValue })
    }

    /// Signed renewal info (`signedRenewalInfo`) as `VerificationResult<RenewalInfo>`; the bundle ID is
    /// not checked here, only the signature and the environment.
    public func renewalInfo(_ compact: String) throws(Undecodable) -> VerificationResult<Product.SubscriptionInfo.RenewalInfo> {
        try verify(compact, decode: Product.SubscriptionInfo.RenewalInfo.init(payloadJSON:jws:), bundleID: { _ in nil },
                   environment: { $0.environment.rawValue })
    }

    /// A signed app transaction as `VerificationResult<AppTransaction>`, checked for signature, bundle
    /// ID and environment.
    public func appTransaction(_ compact: String) throws(Undecodable) -> VerificationResult<AppTransaction> {
        try verify(compact, decode: AppTransaction.init(payloadJSON:jws:), bundleID: { $0.bundleID }, environment: { $0.environment.rawValue })
    }

    /// The verdict, with the decoded value either way. The payload of a JWS that fails the
    /// signature is still decoded (without trusting it), as StoreKit's `.unverified` carries it.
    func verify<T>(_ compact: String, decode: ([UInt8], String) throws -> T, bundleID: (T) -> String?,
                   environment: (T) -> String) throws(Undecodable) -> VerificationResult<T> {
        var verdict: VerificationResult<T>.VerificationError?
        var payload: [UInt8]
        do {
            payload = try jws.verify(compact)
        } catch {
            verdict = Self.verificationError(error)
            let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count == 3, let raw = Base64URL.decode(segments[1]) else {
                throw Undecodable(reason: "not a compact JWS (\(error))")
            }
            payload = raw
        }
        let value: T
        do {
            value = try decode(payload, compact)
        } catch {
            throw Undecodable(reason: "payload lacks required properties or is not JSON: \(error)")
        }
        if let verdict { return .unverified(value, verdict) }
        if let bundle = bundleID(value), bundle != self.bundleID { return .unverified(value, .invalidDeviceVerification) }
        if environment(value) != self.environment { return .unverified(value, .invalidDeviceVerification) }
        return .verified(value)
    }

    static func verificationError<T>(_ error: JWSError) -> VerificationResult<T>.VerificationError {
        switch error {
        case .malformed: .invalidEncoding
        case .unsupportedAlgorithm, .invalidSignature: .invalidSignature
        case .invalidChain: .invalidCertificateChain
        }
    }

    /// Verifies a list, leaving out (and logging) what cannot be decoded at all.
    func transactions(_ list: [String]) -> [VerificationResult<Transaction>] {
        list.compactMap { compact in
            do {
                return try transaction(compact)
            } catch {
                logger.warning("skipped signed transaction that cannot be decoded: \(error)")
                return nil
            }
        }
    }
}
