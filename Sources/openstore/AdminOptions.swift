import ArgumentParser
import Foundation

/// How a Transaction Manager command reaches the store: it talks to a running `openstore serve`
/// over the admin API, so the store's scheduler, clients and CLI all see one state.
struct AdminConnection: ParsableArguments {
    @Option(help: "The running store.")
    var server = "http://127.0.0.1:8080"
    @Option(name: .customLong("admin-token"), help: ArgumentHelp(
        "The token the store was started with (default: $OPENSTORE_ADMIN_TOKEN).", valueName: "token"))
    var adminToken: String?

    func client() -> StoreClient {
        StoreClient(base: server, token: adminToken ?? ProcessInfo.processInfo.environment["OPENSTORE_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
    }
}

/// The world a command acts in, with its connection.
struct WorldConnection: ParsableArguments {
    @Option(help: "The world to act in.")
    var world = "default"
    @OptionGroup var connection: AdminConnection

    /// `/admin/v1/worlds/<world>`
    var path: String { "/admin/v1/worlds/\(world.pathEscaped)" }

    /// Runs `body` with a client, shutting it down afterwards whatever happens.
    func with<T>(_ body: (StoreClient, String) async throws -> T) async throws -> T {
        let client = connection.client()
        defer { client.shutdown() }
        return try await body(client, path)
    }
}

/// `on` or `off`, for the Transaction Manager's switches.
enum Toggle: String, ExpressibleByArgument, CaseIterable {
    case on, off
    var isOn: Bool { self == .on }
}

/// How commands print what the store answered.
enum AdminOutput {
    static func json(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return "\(object)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func date(_ ms: Any?) -> String {
        guard let ms = (ms as? NSNumber)?.int64Value else { return "-" }
        return Date(timeIntervalSince1970: Double(ms) / 1000).formatted(.iso8601)
    }

    /// One line about a world's clock and switches.
    static func world(_ world: [String: Any]) -> String {
        let settings = world["settings"] as? [String: Any] ?? [:]
        var switches = ["askToBuy", "failRenewals", "billingGracePeriod", "interruptedPurchases", "failTransactions"]
            .compactMap { key in (settings[key] as? Bool).map { "\(key)=\($0 ? "on" : "off")" } }
        if let limit = settings["renewalLimit"] { switches.append("renewalLimit=\(limit)") }
        let errors = (settings["simulatedErrors"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }
        var line = "\(world["id"] ?? "?")  \(date(world["nowMs"]))  rate \(world["rate"] ?? "?")"
        if !switches.isEmpty { line += "  " + switches.joined(separator: " ") }
        if !errors.isEmpty { line += "  errors: " + errors.joined(separator: ", ") }
        return line
    }

    /// A transaction or renewal answer, as `purchase` prints one: the JWS, then the payload with --json.
    static func signed(_ answer: [String: Any], json: Bool) {
        if json { print(Self.json(answer)); return }
        if let status = answer["status"] as? String, status != "purchased" {
            print("status: \(status)" + ((answer["pendingId"] as? String).map { "  pendingId: \($0)" } ?? ""))
        }
        for (key, payloadKey) in [("signedTransaction", "transaction"), ("signedRenewalInfo", "renewalInfo")] {
            guard answer[key] is String, let payload = answer[payloadKey] as? [String: Any] else { continue }
            print("\(payloadKey): " + summary(payload))
        }
    }

    /// The fields of a transaction or renewal info a person looks at first.
    static func summary(_ payload: [String: Any]) -> String {
        var parts: [String] = []
        for key in ["transactionId", "originalTransactionId", "productId", "transactionReason", "autoRenewStatus", "autoRenewProductId",
                    "expirationIntent", "isInBillingRetryPeriod", "revocationReason"] {
            if let value = payload[key] { parts.append("\(key)=\(value)") }
        }
        for key in ["purchaseDate", "expiresDate", "revocationDate", "gracePeriodExpiresDate", "renewalDate"] {
            if payload[key] != nil { parts.append("\(key)=\(date(payload[key]))") }
        }
        return parts.joined(separator: " ")
    }
}
