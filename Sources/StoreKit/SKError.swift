import Foundation
import OpenStoreKit

/// The error domain of StoreKit 1's errors.
public let SKErrorDomain = "SKErrorDomain"

/// StoreKit 1's error: a code in `SKErrorDomain`, as `transaction.error` and
/// `request(_:didFailWithError:)` carry it. App code reads it as on Apple platforms:
/// `(error as? SKError)?.code == .paymentCancelled`, `SKError.paymentCancelled`, or
/// `(error as NSError).domain == SKErrorDomain`. The underlying StoreKit 2 error, when there is
/// one, is in `userInfo[NSUnderlyingErrorKey]`, and the message says what happened.
public struct SKError: CustomNSError, Hashable, Sendable, LocalizedError {
    /// StoreKit 1's codes, with Apple's raw values (SKErrorCode).
    public enum Code: Int, Sendable, Hashable {
        case unknown = 0
        case clientInvalid = 1
        case paymentCancelled = 2
        case paymentInvalid = 3
        case paymentNotAllowed = 4
        case storeProductNotAvailable = 5
        case cloudServicePermissionDenied = 6
        case cloudServiceNetworkConnectionFailed = 7
        case cloudServiceRevoked = 8
        case privacyAcknowledgementRequired = 9
        case unauthorizedRequestData = 10
        case invalidOfferIdentifier = 11
        case invalidSignature = 12
        case missingOfferParams = 13
        case invalidOfferPrice = 14
        case overlayCancelled = 15
        case overlayInvalidConfiguration = 16
        case overlayTimeout = 17
        case ineligibleForOffer = 18
        case unsupportedPlatform = 19
        case overlayPresentedInBackgroundScene = 20
    }

    public let code: Code
    /// What happened, in words (`localizedDescription`).
    public let message: String
    private let underlying: UnderlyingError?

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String ?? "StoreKit error \(code.rawValue) (\(code))"
        self.underlying = (userInfo[NSUnderlyingErrorKey] as? any Error).map(UnderlyingError.init)
    }

    init(_ code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying.map(UnderlyingError.init)
    }

    public static var errorDomain: String { SKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying.error }
        return info
    }
    public var errorDescription: String? { message }
    public var userInfo: [String: Any] { errorUserInfo }

    public static func == (lhs: SKError, rhs: SKError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var unknown: Code { .unknown }
    public static var clientInvalid: Code { .clientInvalid }
    public static var paymentCancelled: Code { .paymentCancelled }
    public static var paymentInvalid: Code { .paymentInvalid }
    public static var paymentNotAllowed: Code { .paymentNotAllowed }
    public static var storeProductNotAvailable: Code { .storeProductNotAvailable }
    public static var cloudServicePermissionDenied: Code { .cloudServicePermissionDenied }
    public static var cloudServiceNetworkConnectionFailed: Code { .cloudServiceNetworkConnectionFailed }
    public static var cloudServiceRevoked: Code { .cloudServiceRevoked }
    public static var privacyAcknowledgementRequired: Code { .privacyAcknowledgementRequired }
    public static var unauthorizedRequestData: Code { .unauthorizedRequestData }
    public static var invalidOfferIdentifier: Code { .invalidOfferIdentifier }
    public static var invalidSignature: Code { .invalidSignature }
    public static var missingOfferParams: Code { .missingOfferParams }
    public static var invalidOfferPrice: Code { .invalidOfferPrice }
    public static var overlayCancelled: Code { .overlayCancelled }
    public static var overlayInvalidConfiguration: Code { .overlayInvalidConfiguration }
    public static var overlayTimeout: Code { .overlayTimeout }
    public static var ineligibleForOffer: Code { .ineligibleForOffer }
    public static var unsupportedPlatform: Code { .unsupportedPlatform }
    public static var overlayPresentedInBackgroundScene: Code { .overlayPresentedInBackgroundScene }
}

/// `catch SKError.paymentCancelled` and `case SKError.paymentCancelled` in a switch over an error.
public func ~= (match: SKError.Code, error: any Error) -> Bool {
    (error as? SKError)?.code == match
}

/// The StoreKit 2 error behind an `SKError`, kept Sendable.
private struct UnderlyingError: @unchecked Sendable {
    let error: any Error
}

extension SKError {
    /// StoreKit 1's view of a StoreKit 2 failure: the code Apple's StoreKit 1 reports for the
    /// same cause, the StoreKit 2 error as the underlying error.
    init(storeKit error: any Error) {
        if let error = error as? SKError { self = error; return }
        let code: Code
        switch error {
        case let error as Product.PurchaseError:
            switch error {
            case .invalidQuantity: code = .paymentInvalid
            case .productUnavailable: code = .storeProductNotAvailable
            case .purchaseNotAllowed: code = .paymentNotAllowed
            case .ineligibleForOffer: code = .ineligibleForOffer
            case .invalidOfferIdentifier: code = .invalidOfferIdentifier
            case .invalidOfferPrice: code = .invalidOfferPrice
            case .invalidOfferSignature: code = .invalidSignature
            case .missingOfferParameters: code = .missingOfferParams
            }
        case let error as StoreKitError:
            switch error {
            case .userCancelled: code = .paymentCancelled
            case .networkError: code = .cloudServiceNetworkConnectionFailed
            case .notAvailableInStorefront: code = .storeProductNotAvailable
            case .notEntitled: code = .clientInvalid
            case .unsupported: code = .unsupportedPlatform
            // Not configured, or an app, customer or world the store does not have: the client's fault.
            case .systemError(let inner as OpenStoreKitError):
                switch inner {
                case .notConfigured, .appNotFound, .customerNotFound, .worldNotFound: code = .clientInvalid
                default: code = .unknown
                }
            case .unknown, .systemError: code = .unknown
            }
        case is OpenStoreKitError: code = .clientInvalid
        default: code = .unknown
        }
        self.init(code, message: "\(code): \(error)", underlying: error)
    }
}
