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

    /// Mirrors StoreKit's `SKError.code`: the value to switch on (`.paymentCancelled`, …).
    public let code: Code
    /// What happened, in words (`localizedDescription`).
    public let message: String
    private let underlying: UnderlyingError?

    /// An error with a code, as `SKError(_:userInfo:)` makes one on Apple platforms; the message
    /// comes from `NSLocalizedDescriptionKey` when given.
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

    /// `SKErrorDomain`, so the error bridges to an `NSError` in StoreKit's domain.
    public static var errorDomain: String { SKErrorDomain }
    /// The code's raw value, as the bridged `NSError.code`.
    public var errorCode: Int { code.rawValue }
    /// The message and the underlying StoreKit 2 error, as the bridged `NSError.userInfo`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying.error }
        return info
    }
    /// The message, so `localizedDescription` says what happened.
    public var errorDescription: String? { message }
    /// Mirrors `SKError.userInfo` on Apple platforms: the same dictionary as `errorUserInfo`.
    public var userInfo: [String: Any] { errorUserInfo }

    /// Two errors are equal when their codes are; the message does not count.
    public static func == (lhs: SKError, rhs: SKError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, to agree with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Mirrors StoreKit's `SKError.unknown`: an unknown or unexpected error, including store
    /// failures StoreKit 1 has no code for.
    public static var unknown: Code { .unknown }
    /// Mirrors StoreKit's `SKError.clientInvalid`: the client may not do this; here also a missing
    /// configuration or an app, customer or world the store does not know.
    public static var clientInvalid: Code { .clientInvalid }
    /// Mirrors StoreKit's `SKError.paymentCancelled`: the customer cancelled the payment.
    public static var paymentCancelled: Code { .paymentCancelled }
    /// Mirrors StoreKit's `SKError.paymentInvalid`: the App Store did not recognise a payment
    /// parameter (here, an invalid quantity or a product the store does not sell).
    public static var paymentInvalid: Code { .paymentInvalid }
    /// Mirrors StoreKit's `SKError.paymentNotAllowed`: the customer may not authorize payments.
    public static var paymentNotAllowed: Code { .paymentNotAllowed }
    /// Mirrors StoreKit's `SKError.storeProductNotAvailable`: the product is not for sale in the customer's storefront.
    public static var storeProductNotAvailable: Code { .storeProductNotAvailable }
    /// Mirrors StoreKit's `SKError.cloudServicePermissionDenied`: the customer did not allow access to cloud service information.
    public static var cloudServicePermissionDenied: Code { .cloudServicePermissionDenied }
    /// Mirrors StoreKit's `SKError.cloudServiceNetworkConnectionFailed`: the device could not reach the
    /// network (here, the store).
    public static var cloudServiceNetworkConnectionFailed: Code { .cloudServiceNetworkConnectionFailed }
    /// Mirrors StoreKit's `SKError.cloudServiceRevoked`: the customer revoked permission to use the cloud service.
    public static var cloudServiceRevoked: Code { .cloudServiceRevoked }
    /// Mirrors StoreKit's `SKError.privacyAcknowledgementRequired`: the customer has not yet
    /// acknowledged Apple's privacy policy for Apple Music.
    public static var privacyAcknowledgementRequired: Code { .privacyAcknowledgementRequired }
    /// Mirrors StoreKit's `SKError.unauthorizedRequestData`: the app used data it is not entitled to
    /// (here, a payment that set `requestData`, which must be nil).
    public static var unauthorizedRequestData: Code { .unauthorizedRequestData }
    /// Mirrors StoreKit's `SKError.invalidOfferIdentifier`: the offer identifier is unknown or not active.
    public static var invalidOfferIdentifier: Code { .invalidOfferIdentifier }
    /// Mirrors StoreKit's `SKError.invalidSignature`: the payment discount's signature does not verify.
    public static var invalidSignature: Code { .invalidSignature }
    /// Mirrors StoreKit's `SKError.missingOfferParams`: the payment discount lacks a parameter.
    public static var missingOfferParams: Code { .missingOfferParams }
    /// Mirrors StoreKit's `SKError.invalidOfferPrice`: the offer's price is no longer valid.
    public static var invalidOfferPrice: Code { .invalidOfferPrice }
    /// Mirrors StoreKit's `SKError.overlayCancelled`: the customer dismissed an App Store overlay.
    public static var overlayCancelled: Code { .overlayCancelled }
    /// Mirrors StoreKit's `SKError.overlayInvalidConfiguration`: the overlay's configuration is invalid.
    public static var overlayInvalidConfiguration: Code { .overlayInvalidConfiguration }
    /// Mirrors StoreKit's `SKError.overlayTimeout`: the overlay timed out.
    public static var overlayTimeout: Code { .overlayTimeout }
    /// Mirrors StoreKit's `SKError.ineligibleForOffer`: the customer is not eligible for the subscription offer.
    public static var ineligibleForOffer: Code { .ineligibleForOffer }
    /// Mirrors StoreKit's `SKError.unsupportedPlatform`: this platform does not support the operation
    /// (here, hosted content, or what the store reports as unsupported).
    public static var unsupportedPlatform: Code { .unsupportedPlatform }
    /// Mirrors StoreKit's `SKError.overlayPresentedInBackgroundScene`: an overlay was shown in a background scene.
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
