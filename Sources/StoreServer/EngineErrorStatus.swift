import StoreEngine

// The engine's refusals are plain values; which HTTP status answers each is the server's call.

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
