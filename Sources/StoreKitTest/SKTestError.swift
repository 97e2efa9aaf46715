import Foundation

/// StoreKitTest's own error, as Apple's `SKTestError` (domain `SKTestErrorDomain`): a session's
/// bad input (a missing or broken `.storekit` file, an unknown product or transaction) is one of
/// these, with a message that says what was wrong and where, never a crash.
public struct SKTestError: Error, CustomNSError, LocalizedError, CustomStringConvertible, Hashable, Sendable {
    /// Apple's cases, in its order. The raw values are the declaration order (Apple's numbers are
    /// not published in the documentation).
    public enum Code: Int, Sendable, Hashable {
        case fileNotFound = 0
        case invalidAction
        case invalidProductIdentifier
        case invalidProductType
        case invalidURL
        case noSubscriptionFound
        case noTransactionFound
        case serviceUnavailable
    }

    /// Which of Apple's `SKTestError.Code` cases this is; `catch SKTestError.noTransactionFound` matches on it.
    public let code: Code
    /// What went wrong, naming the file, JSON path, product or transaction concerned.
    public let message: String

    /// An error with `code`; its message is `userInfo[NSLocalizedDescriptionKey]` when that is a string,
    /// else the code's name.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `SKTestErrorDomain`, the domain Apple's `SKTestError` bridges to `NSError` with.
    public static var errorDomain: String { "SKTestErrorDomain" }
    /// The code's raw value (its position in `Code`, not a number Apple publishes).
    public var errorCode: Int { code.rawValue }
    /// Carries `message` as the localized description when bridged to `NSError`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// `message`, so `localizedDescription` says what was wrong.
    public var errorDescription: String? { message }
    /// The code and the message, for test failure output.
    public var description: String { "SKTestError.\(code): \(message)" }

    /// Apple's `fileNotFound`: no `.storekit` file with the given name or at the given path.
    public static var fileNotFound: Code { .fileNotFound }
    /// Apple's `invalidAction`: the call cannot be done as asked (an unreadable `.storekit` file, a purchase
    /// with no transaction yet, more than one offer).
    public static var invalidAction: Code { .invalidAction }
    /// Apple's `invalidProductIdentifier`: the session's configuration file has no such product.
    public static var invalidProductIdentifier: Code { .invalidProductIdentifier }
    /// Apple's `invalidProductType`: the action needs an auto-renewable subscription and the product is not one.
    public static var invalidProductType: Code { .invalidProductType }
    /// Apple's `invalidURL`: a configuration file URL that is not a file URL.
    public static var invalidURL: Code { .invalidURL }
    /// Apple's `noSubscriptionFound`: the session's account has no subscription to the product.
    public static var noSubscriptionFound: Code { .noSubscriptionFound }
    /// Apple's `noTransactionFound`: no transaction (or pending Ask to Buy purchase) with that identifier.
    public static var noTransactionFound: Code { .noTransactionFound }
    /// Apple's `serviceUnavailable`: the in-process store failed, or its signed data did not verify.
    public static var serviceUnavailable: Code { .serviceUnavailable }

    /// Equal when both the code and the message are equal.
    public static func == (lhs: SKTestError, rhs: SKTestError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
    /// Hashes the code and the message, as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(code); hasher.combine(message) }
}

extension SKTestError.Code {
    /// `catch SKTestError.noTransactionFound`, as with Apple's bridged error codes.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? SKTestError)?.code == code
    }
}
