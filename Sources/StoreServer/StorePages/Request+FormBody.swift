import StoreShared
import Hummingbird
import NIOCore

extension Request {
    /// Largest form a store page posts (an action, a product ID, an offer code).
    static let maxFormBody = 16 * 1024

    /// The fields of an `application/x-www-form-urlencoded` body. An oversized body is drained
    /// (up to a bound) before the 413, like `decodeJSON`, so the client reads the answer.
    func formFields() async throws -> [String: String] {
        let (buffer, received) = try await boundedBody(limit: Self.maxFormBody)
        guard received <= Self.maxFormBody else {
            throw RequestError(status: 413, code: "payloadTooLarge", message: "a store page form is at most \(Self.maxFormBody) bytes")
        }
        return FormEncoding.fields(String(buffer: buffer))
    }
}
