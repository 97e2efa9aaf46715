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

    public let code: Code
    /// What went wrong, naming the file, JSON path, product or transaction concerned.
    public let message: String

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { "SKTestErrorDomain" }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }
    public var description: String { "SKTestError.\(code): \(message)" }

    public static var fileNotFound: Code { .fileNotFound }
    public static var invalidAction: Code { .invalidAction }
    public static var invalidProductIdentifier: Code { .invalidProductIdentifier }
    public static var invalidProductType: Code { .invalidProductType }
    public static var invalidURL: Code { .invalidURL }
    public static var noSubscriptionFound: Code { .noSubscriptionFound }
    public static var noTransactionFound: Code { .noTransactionFound }
    public static var serviceUnavailable: Code { .serviceUnavailable }

    public static func == (lhs: SKTestError, rhs: SKTestError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
    public func hash(into hasher: inout Hasher) { hasher.combine(code); hasher.combine(message) }
}

extension SKTestError.Code {
    /// `catch SKTestError.noTransactionFound`, as with Apple's bridged error codes.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? SKTestError)?.code == code
    }
}
