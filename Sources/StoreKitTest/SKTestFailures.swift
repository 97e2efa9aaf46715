import Foundation
import OpenStoreKit
import StoreEngine

/// An error a failable StoreKit API can be set to fail with (`setSimulatedError(_:forAPI:)`).
public protocol SKTestFailure: Equatable, Sendable {}

/// The failure each StoreKit API can be given, after Apple's `SKTestFailures` (iOS 17).
public enum SKTestFailures {
    /// What "Load Products" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum LoadProducts: SKTestFailure { case generic(StoreKitError) }
    /// What "Purchase" can be made to fail with: a `StoreKitError` (`.generic`) or a
    /// `Product.PurchaseError` (`.purchase`).
    public enum Purchase: SKTestFailure { case generic(StoreKitError), purchase(Product.PurchaseError) }
    /// What "Verification" can be made to fail with: a `VerificationResult.VerificationError` only.
    public enum Verification: SKTestFailure { case verification(VerificationResult<Transaction>.VerificationError) }
    /// What "App Store Sync" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum AppStoreSync: SKTestFailure { case generic(StoreKitError) }
    /// What "Subscription Status" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum SubscriptionStatus: SKTestFailure { case generic(StoreKitError) }
    /// What "App Transaction" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum AppTransaction: SKTestFailure { case generic(StoreKitError) }
    /// What "Manage Subscriptions Sheet" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum ManageSubscriptions: SKTestFailure { case generic(StoreKitError) }
    /// What "Refund Request Sheet" can be made to fail with: a `StoreKitError` (`.generic`) or a
    /// `Transaction.RefundRequestError` (`.refundRequest`).
    public enum RefundRequest: SKTestFailure { case generic(StoreKitError), refundRequest(Transaction.RefundRequestError) }
    /// What "Offer Code Redeem Sheet" can be made to fail with: a `StoreKitError` (`.generic`).
    public enum OfferCodeRedeem: SKTestFailure { case generic(StoreKitError) }
}

/// How a failure is named in the store (the case name, as `_storeKitErrors` and the Transaction
/// Manager name it) and made again from that name.
protocol NamedFailure {
    var name: String { get }
    init?(name: String)
}

/// `StoreKitError`'s case name, as the store names it.
func name(of error: StoreKitError) -> String {
    switch error {
    case .unknown: "unknown"
    case .userCancelled: "userCancelled"
    case .networkError: "networkError"
    case .systemError: "systemError"
    case .notAvailableInStorefront: "notAvailableInStorefront"
    case .notEntitled: "notEntitled"
    case .unsupported: "unsupported"
    @unknown default: "unknown"
    }
}

/// `StoreKitError`'s cases by name; those with payloads get a representative one.
func storeKitError(named name: String) -> StoreKitError? {
    switch name {
    case "unknown": .unknown
    case "userCancelled": .userCancelled
    case "networkError": .networkError(URLError(.notConnectedToInternet))
    case "systemError": .systemError(SKTestError(.serviceUnavailable, "simulated system error"))
    case "notAvailableInStorefront": .notAvailableInStorefront
    case "notEntitled": .notEntitled
    case "unsupported": .unsupported
    default: nil
    }
}

/// The other families' cases in declaration order, beside the store's names for them.
private let purchaseErrors: [Product.PurchaseError] = [
    .invalidQuantity, .productUnavailable, .purchaseNotAllowed, .ineligibleForOffer, .invalidOfferIdentifier, .invalidOfferPrice,
    .invalidOfferSignature, .missingOfferParameters,
]
private let verificationErrors: [VerificationResult<Transaction>.VerificationError] = [
    .revokedCertificate, .invalidCertificateChain, .invalidDeviceVerification, .invalidEncoding, .invalidSignature, .missingRequiredProperties,
]
private let refundErrors: [Transaction.RefundRequestError] = [.duplicateRequest, .failed]

private func name<E: Equatable>(of error: E, in list: [E], family: String) -> String {
    let names = CatalogSimulatedErrors.cases[family] ?? []
    guard let index = list.firstIndex(of: error), names.indices.contains(index) else { return "unknown" }
    return names[index]
}

private func listedError<E>(named name: String, in list: [E], family: String) -> E? {
    guard let index = CatalogSimulatedErrors.cases[family]?.firstIndex(of: name), list.indices.contains(index) else { return nil }
    return list[index]
}

/// Failures that wrap only `StoreKitError`.
protocol GenericFailure: NamedFailure, SKTestFailure {
    static func generic(_ error: StoreKitError) -> Self
    var error: StoreKitError { get }
}

extension GenericFailure {
    var name: String { StoreKitTest.name(of: error) }
    init?(name: String) {
        guard let error = storeKitError(named: name) else { return nil }
        self = .generic(error)
    }
}

extension SKTestFailures.LoadProducts: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
extension SKTestFailures.AppStoreSync: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
extension SKTestFailures.SubscriptionStatus: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
extension SKTestFailures.AppTransaction: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
extension SKTestFailures.ManageSubscriptions: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
extension SKTestFailures.OfferCodeRedeem: GenericFailure {
    var error: StoreKitError { switch self { case .generic(let e): e } }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}

extension SKTestFailures.Purchase: NamedFailure {
    var name: String {
        switch self {
        case .generic(let error): StoreKitTest.name(of: error)
        case .purchase(let error): StoreKitTest.name(of: error, in: purchaseErrors, family: "purchase")
        }
    }
    init?(name: String) {
        if let error = storeKitError(named: name) { self = .generic(error) }
        else if let error = listedError(named: name, in: purchaseErrors, family: "purchase") { self = .purchase(error) }
        else { return nil }
    }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}

extension SKTestFailures.Verification: NamedFailure {
    var name: String { switch self { case .verification(let error): StoreKitTest.name(of: error, in: verificationErrors, family: "verification") } }
    init?(name: String) {
        guard let error = listedError(named: name, in: verificationErrors, family: "verification") else { return nil }
        self = .verification(error)
    }
}

extension SKTestFailures.RefundRequest: NamedFailure {
    var name: String {
        switch self {
        case .generic(let error): StoreKitTest.name(of: error)
        case .refundRequest(let error): StoreKitTest.name(of: error, in: refundErrors, family: "refundRequest")
        }
    }
    init?(name: String) {
        if let error = storeKitError(named: name) { self = .generic(error) }
        else if let error = listedError(named: name, in: refundErrors, family: "refundRequest") { self = .refundRequest(error) }
        else { return nil }
    }
    /// Equal when the store names both failures the same (a `networkError`'s wrapped error is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
}
