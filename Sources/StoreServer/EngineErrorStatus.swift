import Hummingbird
import StoreEngine

// The engine's refusals are plain values; which HTTP status answers each is the server's call,
// and each answers for itself (Hummingbird's `HTTPResponseError`): the store's JSON body
// `{"error": code, "message": …}` on the device, admin and other JSON routes, Apple's body for
// `ServerAPIError`. `ErrorMiddleware` hands them their request; the Server API and the HTML pages
// map the engine's errors to their own surfaces first.

extension StoreError {
    /// Not found for missing things, conflict for an action the item's state refuses, else bad request.
    var httpStatus: Int {
        switch self {
        case .appNotFound, .productUnavailable, .customerNotFound, .transactionNotFound, .worldNotFound: 404
        case .alreadyPurchased, .invalidAction: 409
        default: 400
        }
    }
}

extension OfferError {
    /// Every offer refusal is a client error.
    var httpStatus: Int { 400 }
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
