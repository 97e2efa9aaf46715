import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

struct PurchaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purchase",
        abstract: "Buy a product through a running store and print the signed transaction.")

    @Argument(help: "The product ID to buy.") var productId: String
    @Option(help: "The buying App Store account; created on first use.") var customer: String
    @Option(help: "The app selling the product (default: the app whose catalog has the product).") var bundleId: String?
    @Option(help: "The running store.") var server = "http://127.0.0.1:8080"
    @Option(help: "How many (consumables only, 1–10).") var quantity = 1
    @Option(help: "A UUID linking the purchase to your own account system.") var appAccountToken: String?
    @Flag(help: "Also print the decoded payloads as JSON.") var json = false

    func run() async throws {
        let client = StoreClient(base: server.hasSuffix("/") ? String(server.dropLast()) : server)
        defer { client.shutdown() }
        let bundle: String
        if let bundleId { bundle = bundleId } else { bundle = try await client.findApp(selling: productId) }
        var body: [String: Any] = ["productId": productId, "customer": customer, "quantity": quantity]
        if let appAccountToken { body["appAccountToken"] = appAccountToken }
        let answer = try await client.send(.POST, "/storekit/v1/apps/\(bundle.pathEscaped)/purchases", json: body)
        guard let signed = answer["signedTransaction"] as? String else {
            throw ValidationError("unexpected answer from the store")
        }
        print(signed)
        if json {
            for key in ["transaction", "renewalInfo"] {
                guard let value = answer[key] else { continue }
                let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                print("\(key):")
                print(String(decoding: data, as: UTF8.self))
            }
        }
    }
}

/// A small JSON client for the device API, used by CLI commands that talk to a running store.
struct StoreClient {
    let base: String
    let http = HTTPClient(eventLoopGroupProvider: .singleton)

    func shutdown() { try? http.syncShutdown() }

    func send(_ method: HTTPMethod, _ path: String, json: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(30))
        } catch {
            throw ValidationError("cannot reach the store at \(base): \(error)")
        }
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
        guard (200..<300).contains(Int(response.status.code)) else {
            let message = object["message"] as? String ?? "HTTP \(response.status.code)"
            throw ValidationError("the store refused: \(message) (\(object["error"] as? String ?? "error"))")
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

extension String {
    var pathEscaped: String { addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? self }
    var queryEscaped: String { addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self }
}
