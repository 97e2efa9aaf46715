import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A small JSON client for the device and admin APIs, used by CLI commands that talk to a running store.
struct StoreClient {
    let base: String
    /// Sent as `Authorization: Bearer …` when the store was started with `--admin-token`.
    var token: String? = nil
    let http = HTTPClient(eventLoopGroupProvider: .singleton)

    init(base: String, token: String? = nil) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.token = token
    }

    func shutdown() { try? http.syncShutdown() }

    func send(_ method: HTTPMethod, _ path: String, json: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(300))
        } catch {
            throw StoreClientError(message: "cannot reach the store at \(base) (is `openstore serve` running? see --server): \(error)")
        }
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
        guard (200..<300).contains(Int(response.status.code)) else {
            let message = object["message"] as? String ?? "HTTP \(response.status.code)"
            throw StoreClientError(message: "the store refused: \(message) (\(object["error"] as? String ?? "error"))")
        }
        return object
    }

    /// The app whose catalog lists the product, so `purchase` needs no --bundle-id in the common case.
    func findApp(selling productId: String) async throws -> String {
        let apps = (try await send(.GET, "/storekit/v1/apps")["apps"] as? [[String: Any]]) ?? []
        for app in apps {
            guard let bundle = app["bundleId"] as? String else { continue }
            let products = (try await send(.GET, "/storekit/v1/apps/\(bundle.pathEscaped)/products?id=\(productId.queryEscaped)")["products"] as? [Any]) ?? []
            if !products.isEmpty { return bundle }
        }
        throw ValidationError("no app on \(base) sells \(productId); pass --bundle-id")
    }
}

/// A failure at run time (the store is down or said no): reported without the usage text.
struct StoreClientError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension String {
    var pathEscaped: String { addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? self }
    var queryEscaped: String { addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self }
}
