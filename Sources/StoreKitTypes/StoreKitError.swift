import Foundation

/// StoreKit's `StoreKitError`, with its case names. The client library throws it for failures
/// that are not about the purchase itself: the store unreachable (`networkError`), a simulated
/// error set in the Transaction Manager, and the store refusing for a reason StoreKit has no case
/// for (`systemError`, wrapping an `OpenStoreKitError` that says what and why).
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    case unsupported

    /// The case a store error code names (`notAvailableInStorefront`, …), if StoreKit has one.
    package init?(code: String) {
        switch code {
        case "unknown": self = .unknown
        case "userCancelled": self = .userCancelled
        case "networkError": self = .networkError(URLError(.notConnectedToInternet))
        case "systemError": self = .systemError(OpenStoreKitError.storeRefused(code: code, message: "simulated system error"))
        case "notAvailableInStorefront": self = .notAvailableInStorefront
        case "notEntitled": self = .notEntitled
        case "unsupported": self = .unsupported
        default: return nil
        }
    }
}

extension StoreKitError: CustomStringConvertible {
    /// Names the case as `StoreKitError.<case>`, with the underlying error where there is one, for logs.
    public var description: String {
        switch self {
        case .unknown: "StoreKitError.unknown"
        case .userCancelled: "StoreKitError.userCancelled"
        case .networkError(let error): "StoreKitError.networkError(\(error.code.rawValue): \(error.localizedDescription))"
        case .systemError(let error): "StoreKitError.systemError(\(error))"
        case .notAvailableInStorefront: "StoreKitError.notAvailableInStorefront"
        case .notEntitled: "StoreKitError.notEntitled"
        case .unsupported: "StoreKitError.unsupported"
        }
    }
}

/// What went wrong talking to the store, in plain words: wrapped in `StoreKitError.systemError`
/// (or thrown by `OpenStoreKit.configure…`) where StoreKit has no case of its own.
public enum OpenStoreKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No configuration: call `OpenStoreKit.configure(…)` or set `OPENSTORE_URL` and friends.
    case notConfigured(String)
    /// The store does not sell for this bundle ID.
    case appNotFound(String)
    /// No such customer (account) in the world.
    case customerNotFound(String)
    /// No such world on the store.
    case worldNotFound(String)
    /// The store refused with a code this library does not map.
    case storeRefused(code: String, message: String)
    /// The store answered something that is not what its API documents.
    case badResponse(String)
    /// The store's root certificate is not the one this client pinned or was given.
    case untrustedStore(String)

    /// A short sentence for logs and error messages, with the store's detail appended.
    public var description: String {
        switch self {
        case .notConfigured(let m): "not configured: \(m)"
        case .appNotFound(let m): "app not found: \(m)"
        case .customerNotFound(let m): "customer not found: \(m)"
        case .worldNotFound(let m): "world not found: \(m)"
        case .storeRefused(let code, let message): "the store refused (\(code)): \(message)"
        case .badResponse(let m): "unexpected answer from the store: \(m)"
        case .untrustedStore(let m): "untrusted store: \(m)"
        }
    }
}
