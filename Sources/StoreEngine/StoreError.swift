/// Why the store refused a request. Each case maps to a stable machine code (StoreKit's own names
/// where StoreKit has one) so clients can branch on it, and a message a person can act on.
public enum StoreError: Error, Sendable, Equatable {
    case appNotFound(String)
    case productUnavailable(String)
    case customerNotFound(String)
    case transactionNotFound(String)
    case invalidQuantity(String)
    case invalidAppAccountToken(String)
    case invalidStorefront(String)
    case alreadyPurchased(String)
    case malformedRequest(String)
    /// A simulated StoreKit error set with the Transaction Manager (`setSimulatedError`).
    case simulated(api: String, error: String)
    /// The request conflicts with the item's state (e.g. approving a purchase that isn't pending).
    case invalidAction(String)
    case worldNotFound(String)
    /// Something else the request names does not exist (a StoreKit message, a StoreKit API).
    case notFound(String)
    /// The request is well formed but asks for something its values rule out (an error a
    /// StoreKit API cannot fail with): 422, where 400 is kept for requests that break the API's form.
    case unprocessable(String)

    /// A stable name for the error in API answers; a simulated error gives the StoreKit error it simulates.
    public var code: String {
        switch self {
        case .appNotFound: "appNotFound"
        case .productUnavailable: "productUnavailable"
        case .customerNotFound: "customerNotFound"
        case .transactionNotFound: "transactionNotFound"
        case .invalidQuantity: "invalidQuantity"
        case .invalidAppAccountToken: "invalidAppAccountToken"
        case .invalidStorefront: "invalidStorefront"
        case .alreadyPurchased: "alreadyPurchased"
        case .malformedRequest: "malformedRequest"
        case .simulated(_, let error): error
        case .invalidAction: "invalidAction"
        case .worldNotFound: "worldNotFound"
        case .notFound: "notFound"
        case .unprocessable: "unprocessableRequest"
        }
    }

    /// What went wrong, for a person; a simulated error says which API it was set on.
    public var message: String {
        switch self {
        case .appNotFound(let m), .productUnavailable(let m), .customerNotFound(let m), .transactionNotFound(let m),
             .invalidQuantity(let m), .invalidAppAccountToken(let m), .invalidStorefront(let m),
             .alreadyPurchased(let m), .malformedRequest(let m), .invalidAction(let m), .notFound(let m), .unprocessable(let m):
            m
        case .worldNotFound(let world):
            "no world named \(world)"
        case .simulated(let api, let error):
            "simulated StoreKit error \(error) for \(api) (set with the Transaction Manager)"
        }
    }
}
