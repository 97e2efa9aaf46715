import Hummingbird
import StoreEngine

// The engine's refusals are plain values; which HTTP status answers each is the server's call,
// and each answers for itself (Hummingbird's `HTTPResponseError`): the store's JSON body
// `{"error": code, "message": …}` on the device, admin and other JSON routes, Apple's body for
// `ServerAPIError`. `ErrorMiddleware` hands them their request; the Server API and the HTML pages
// map the engine's errors to their own surfaces first.

extension StoreError {
    /// 400 for a request that breaks the API's form (openapi.json says what the form is), 404 for
    /// something it names that does not exist, 409 for what the state refuses (a simulated
    /// StoreKit error is the world's state: it was set to fail), 422 for a well-formed request
    /// whose values rule each other out (a storefront code no App Store has, a quantity
    /// the product does not allow).
    var httpStatus: Int {
        switch self {
        case .appNotFound, .productUnavailable, .customerNotFound, .transactionNotFound, .worldNotFound, .notFound: 404
        case .alreadyPurchased, .invalidAction, .simulated: 409
        case .unprocessable, .invalidStorefront, .invalidQuantity: 422
        default: 400
        }
    }
}

extension OfferError {
    /// An offer refused for what it is (a signature that does not verify, a code that does not
    /// exist or is used up, a customer not eligible): the request is well formed, so 422.
    var httpStatus: Int { 422 }
}

extension ServerAPIError {
    /// Apple's rule: the status is the code's first three digits (4000006 → 400, 4040010 → 404, 4290000 → 429).
    var httpStatus: Int { Int(code / 10_000) }
}

extension StoreError: HTTPResponseError {
    /// `httpStatus` as Hummingbird's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    /// The store's JSON error body with the error's code and message.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.error(status: httpStatus, code: code, message: message)
    }
}

extension OfferError: HTTPResponseError {
    /// `httpStatus` as Hummingbird's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    /// The store's JSON error body, with StoreKit's offer error as the code.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.error(status: httpStatus, code: code, message: message)
    }
}

extension ServerAPIError: HTTPResponseError {
    /// `httpStatus` as Hummingbird's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    /// Apple's body: `{"errorCode": …, "errorMessage": …}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        AppleJSON.error(self)
    }
}
