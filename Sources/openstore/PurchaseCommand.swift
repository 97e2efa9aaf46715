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
    @Option(help: "billingPlanType: MONTHLY buys a one-year plan monthly with a 12-month commitment; BILLED_UPFRONT (default) up front.")
    var billingPlan: String?
    @Flag(help: "Also print the decoded payloads as JSON, and a subscription's signedRenewalInfo.") var json = false

    func run() async throws {
        let client = StoreClient(base: server.hasSuffix("/") ? String(server.dropLast()) : server)
        defer { client.shutdown() }
        let bundle: String
        if let bundleId { bundle = bundleId } else { bundle = try await client.findApp(selling: productId) }
        var body: [String: Any] = ["productId": productId, "customer": customer, "quantity": quantity]
        if let appAccountToken { body["appAccountToken"] = appAccountToken }
        if let billingPlan { body["billingPlanType"] = billingPlan }
        let answer = try await client.send(.POST, "/storekit/v1/apps/\(bundle.pathEscaped)/purchases", json: body)
        guard let signed = answer["signedTransaction"] as? String else {
            throw ValidationError("unexpected answer from the store")
        }
        print(signed)
        if json {
            // A subscription's renewal info is signed too: print its JWS as the device API answers it.
            if let signedRenewalInfo = answer["signedRenewalInfo"] as? String {
                print("signedRenewalInfo:")
                print(signedRenewalInfo)
            }
            for key in ["transaction", "renewalInfo"] {
                guard let value = answer[key] else { continue }
                let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                print("\(key):")
                print(String(decoding: data, as: UTF8.self))
            }
        }
    }
}
