import StoreEngine
import StoreShared
import Foundation
import Hummingbird
import NIOCore

/// JSON in and out, with the store's error shape `{"error": code, "message": text}`.
enum JSONResponse {
    /// Keys sorted: answers holding dictionaries (a world's simulated errors, switches) print the
    /// same way in every process, so a diff or a snapshot of an answer is stable.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(status: Int, code: String, message: String) -> Response {
        struct Body: Encodable { var error: String; var message: String }
        let data = (try? encoder.encode(Body(error: code, message: message))) ?? Data("{}".utf8)
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A request the server refuses before it reaches the store.
struct RequestError: HTTPResponseError {
    /// The HTTP status, as a number.
    var statusCode: Int
    var code: String
    var message: String

    init(status: Int, code: String, message: String) {
        self.statusCode = status
        self.code = code
        self.message = message
    }

    /// `statusCode` as Hummingbird's status.
    var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    /// The store's JSON error body; after a 413 the connection closes, since the unread rest of
    /// an oversized body would otherwise stall it.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.error(status: statusCode, code: code, message: message)
        if statusCode == 413 { response.headers[.connection] = "close" }
        return response
    }

    static func malformed(_ message: String) -> RequestError {
        RequestError(status: 400, code: "malformedRequest", message: message)
    }
}

extension Request {
    /// Largest request body the device API reads; bigger bodies get 413, never a crash.
    static let maxJSONBody = 64 * 1024
    /// How much of an oversized body is drained before the connection is simply closed.
    static let maxDrainedBody = 64 * 1024 * 1024

    /// The body up to `limit` bytes, and how many bytes arrived. A longer body is read on (up to
    /// `maxDrainedBody`) without being kept, so a client that sends everything before reading
    /// still gets the 413 rather than a stalled socket.
    func boundedBody(limit: Int) async throws -> (ByteBuffer, received: Int) {
        // A body announced larger than the drain bound is refused before any of it is read
        // (issue 15: a 100 MB upload got no answer until 64 MB had arrived).
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > Swift.max(limit, Self.maxDrainedBody) {
            return (ByteBuffer(), declared)
        }
        var buffer = ByteBuffer()
        var received = 0
        for try await chunk in body {
            received += chunk.readableBytes
            if received <= limit {
                var chunk = chunk
                buffer.writeBuffer(&chunk)
            } else if received > Self.maxDrainedBody {
                break
            }
        }
        return (buffer, received)
    }

    /// Decodes a JSON body, turning every way it can be wrong into a 4xx with a useful message.
    /// The JSON body as `type`; with `emptyIsObject`, no body at all reads as `{}` (a request
    /// whose fields are all optional, as openapi.json marks it with `required: false`).
    func decodeJSON<T: Decodable>(_ type: T.Type, emptyIsObject: Bool = false) async throws -> T {
        let (buffer, received) = try await boundedBody(limit: Self.maxJSONBody)
        // An oversized body is read to its end (up to a bound) before answering, so that clients
        // which send everything before reading still get the 413 rather than a stalled socket.
        guard received <= Self.maxJSONBody else {
            throw RequestError(status: 413, code: "payloadTooLarge", message: "request body exceeds \(Self.maxJSONBody) bytes")
        }
        guard buffer.readableBytes > 0 || emptyIsObject else { throw RequestError.malformed("request body must be a JSON object") }
        do {
            return try Self.bodyDecoder.decode(T.self, from: buffer.readableBytes > 0 ? Data(buffer.readableBytesView) : Data("{}".utf8))
        } catch let DecodingError.keyNotFound(key, _) {
            throw RequestError.malformed("missing field \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(expected, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw RequestError.malformed("field \"\(path)\" must be \(Self.jsonTypeName(expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw RequestError.malformed("field \"\(path)\" must be \(Self.jsonTypeName(expected)), not null")
        } catch {
            throw RequestError.malformed("request body is not valid JSON")
        }
    }

    /// One decoder for every request body: making one per request cost a purchase measurably,
    /// and decoding with a decoder whose options never change is safe from many tasks at once.
    static let bodyDecoder = JSONDecoder()

    static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "a boolean"
        default: "\(type)"
        }
    }

    /// All values of a repeatable query key, in order.
    func queryValues(_ key: String) -> [String] {
        uri.queryParameters[values: Substring(key)].map(String.init)
    }

    /// An integer query value within `range` (openapi.json's `minimum` and `maximum`), or
    /// `value` when the key is absent; anything else is refused, not clamped.
    func queryInteger(_ key: String, default value: Int64, range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = try queryValue(key) else { return value }
        guard let number = Int64(text), range.contains(number) else {
            let upper = range.upperBound == .max ? "" : " to \(range.upperBound)"
            throw RequestError.malformed("query \(key) must be an integer from \(range.lowerBound)\(upper)")
        }
        return number
    }

    /// A query value that is not a list: given twice, it is refused (which one would count?).
    func queryValue(_ key: String) throws -> String? {
        let values = queryValues(key)
        guard values.count <= 1 else { throw RequestError.malformed("query \(key) is given \(values.count) times; it takes one value") }
        return values.first
    }
}

extension StoreRequestContext {
    /// A path parameter, percent-decoded, so customer names may hold spaces and other characters.
    func pathValue(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw RequestError.malformed("missing path parameter \(name)") }
        // No identifier of the store (customer, app, product, world, transaction) holds control
        // characters, invalid UTF-8 or over 1,024 characters: such a path is refused, not looked
        // up (issue 15: `a%00b`, `%FF` and 64 KB customer names were listed as empty customers).
        // Characters are Unicode scalars, as JSON Schema's `maxLength` counts them (openapi.json).
        guard let value = Self.percentDecoded(raw), value.unicodeScalars.count <= Self.maxPathValue,
              !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw RequestError.malformed("path parameter \(name) must be at most \(Self.maxPathValue) characters without control characters")
        }
        // A world's and a customer's name have their own rules, on every route (also on those
        // that only read, so a name no account can have is refused, not listed as empty).
        if name == "world" { try AppStore.checkWorldName(value) }
        if name == "customer" { try AppStore.checkCustomerName(value) }
        return value
    }

    static let maxPathValue = 1024

    /// A path segment of Apple's Server API, percent-decoded; an absent one reads as empty.
    /// Apple's own rules for each (digits for transaction IDs, UUIDs for retention messages)
    /// answer with Apple's error codes, so nothing is refused here.
    func appleSegment(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// `%XX` escapes decoded, any other `%` kept as it is (`50%off`); nil when the bytes are not UTF-8.
    static func percentDecoded(_ raw: String) -> String? {
        FormEncoding.pathDecoded(raw)
    }
}
