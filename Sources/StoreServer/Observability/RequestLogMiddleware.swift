import Foundation
import Hummingbird
import Logging
import StoreEngine

/// Gives every request an ID (`X-Request-ID`: the caller's, when it is a plain token, else a new
/// one), puts it and what the path names (world, app, customer, transaction) in the metadata of
/// every log line written for the request, and logs the request once when it ends: at `info`,
/// or at `error` with its fault for a 5xx. Never logs headers, bodies or query strings, so
/// tokens, keys and shared secrets cannot reach the log.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = StoreRequestContext
    static let header = HTTPFields.Element.Name("X-Request-ID")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = request.headers[Self.header].flatMap(Self.acceptable) ?? context.id
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        context.logger[metadataKey: "hb.request.id"] = nil
        var response: Response
        do {
            response = try await next(request, context)
        } catch is CancellationError {
            // The client went away before an answer (ErrorMiddleware.clientClosedRequest).
            log(request, context: context, status: 499, start: start, failure: nil)
            throw CancellationError()
        } catch {
            // Errors the error middleware did not answer (HTTP parsing) still get logged once.
            let facts = context.facts
            facts.failure = facts.failure ?? String(describing: error)
            log(request, context: context, status: 500, start: start, failure: facts.failure)
            throw error
        }
        response.headers[Self.header] = id
        log(request, context: context, status: Int(response.status.code), start: start, failure: context.facts.failure)
        return response
    }

    func log(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant, failure: String?) {
        if status < 500 && context.logger.logLevel > .info { return }
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(request.uri.path), "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(Self.milliseconds(ContinuousClock.now - start)),
        ]
        if let route = context.endpointPath { metadata["route"] = .string(route) }
        for (key, value) in RouteSubjects.values(path: request.uri.path, route: context.endpointPath) { metadata[key] = .string(value) }
        if status >= 500 {
            if let failure { metadata["error"] = .string(failure) }
            context.logger.error("request failed", metadata: metadata)
        } else {
            context.logger.info("request", metadata: metadata)
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
    }

    /// A caller's request ID is kept when it is 1–128 letters, digits, `-`, `_` or `.`.
    static func acceptable(_ text: String) -> String? {
        guard (1...128).contains(text.utf8.count),
              text.utf8.allSatisfy({ $0 == 45 || $0 == 46 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else { return nil }
        return text
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = Foundation.pow(10.0, Double(places))
        return (self * scale).rounded() / scale
    }
}

/// What a request is about, read from its path against its route's template: `{world}`,
/// `{bundleId}` (as `app`), `{customer}` and any transaction ID. Logs carry them so a failure can
/// be traced to the world, app, customer and transaction it touched.
enum RouteSubjects {
    static let keys: [String: String] = [
        "world": "world", "bundleId": "app", "customer": "customer",
        "transactionId": "transaction", "originalTransactionId": "transaction",
    ]

    static func values(path: String, route: String?) -> [(String, String)] {
        guard let route else { return [] }
        let template = route.split(separator: "/", omittingEmptySubsequences: true)
        let actual = path.split(separator: "/", omittingEmptySubsequences: true)
        guard template.count == actual.count else { return [] }
        var found: [(String, String)] = []
        for (part, value) in zip(template, actual) where part.first == "{" && part.last == "}" || part.first == ":" {
            let name = part.first == ":" ? String(part.dropFirst()) : String(part.dropFirst().dropLast())
            guard let key = keys[name] else { continue }
            found.append((key, String(value).removingPercentEncoding ?? String(value)))
        }
        // The device API's plain paths (`/storekit/v1/apps/…`) act in the default world.
        if route.hasPrefix("/storekit/v1/"), !found.contains(where: { $0.0 == "world" }) {
            found.insert(("world", AppStore.defaultWorld), at: 0)
        }
        return found
    }
}
