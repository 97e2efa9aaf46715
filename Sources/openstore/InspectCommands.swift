import ArgumentParser
import Foundation

/// What a test looks at, or wipes, after driving a world: subscription statuses, the App Store's
/// events log (the seeds of server notifications), and `clearTransactions`.

struct SubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "Show a customer's subscriptions in an app: status, latest transaction and renewal info.")
    @Option(help: "The app.") var bundleId: String
    @Option(help: "The App Store account.") var customer: String
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON (with the signed JWS).") var json = false

    static let statusNames = [1: "active", 2: "expired", 3: "billingRetry", 4: "billingGracePeriod", 5: "revoked"]

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.GET, path + "/apps/\(bundleId.pathEscaped)/customers/\(customer.pathEscaped)/subscriptions")
        }
        if json { print(AdminOutput.json(answer)); return }
        let items = answer["subscriptions"] as? [[String: Any]] ?? []
        if items.isEmpty { print("no subscriptions") }
        for item in items {
            let status = (item["status"] as? Int).map { "\($0) \(Self.statusNames[$0] ?? "")" } ?? "?"
            print("group \(item["subscriptionGroupIdentifier"] ?? "?")  status \(status)  originalTransactionId \(item["originalTransactionId"] ?? "?")")
            if let transaction = item["transaction"] as? [String: Any] { print("  transaction: " + AdminOutput.summary(transaction)) }
            if let renewal = item["renewalInfo"] as? [String: Any] { print("  renewalInfo: " + AdminOutput.summary(renewal)) }
        }
    }
}

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the world's App Store events in order (purchases, renewals, expirations, refunds, …).")
    @Option(help: "Only events after this sequence number (the lastSeq of a previous call).") var after: Int64 = 0
    @Option(help: "At most this many events.") var limit = 1000
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.GET, path + "/events?after=\(after)&limit=\(limit)")
        }
        if json { print(AdminOutput.json(answer)); return }
        for event in answer["events"] as? [[String: Any]] ?? [] {
            let type = [event["type"], event["subtype"]].compactMap { $0 as? String }.joined(separator: "/")
            let transaction = (event["transactionId"] as? String).map { "  transaction \($0)" } ?? ""
            print("\(event["seq"] ?? "?")  \(AdminOutput.date(event["atMs"]))  \(type)  \(event["bundleId"] ?? "?")  \(event["customer"] ?? "?")\(transaction)")
        }
    }
}

struct ClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete an app's transactions in a world, for one customer or all (clearTransactions).")
    @Option(help: "The app.") var bundleId: String
    @Option(help: "Only this App Store account's transactions.") var customer: String?
    @OptionGroup var target: WorldConnection

    func run() async throws {
        let query = customer.map { "?customer=\($0.queryEscaped)" } ?? ""
        _ = try await target.with { client, path in
            try await client.send(.DELETE, path + "/apps/\(bundleId.pathEscaped)/transactions\(query)")
        }
        print("cleared \(bundleId) transactions" + (customer.map { " of \($0)" } ?? "") + " in \(target.world)")
    }
}
