import ArgumentParser
import Foundation

/// The Transaction Manager's per-transaction actions, after `SKTestSession`: each names a
/// transaction (any transaction of a subscription will do) and acts in `--world`.

struct RefundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refund", abstract: "Refund a transaction: access ends now (refundTransaction).")
    @Argument(help: "The transaction ID.") var transactionId: String
    @Option(help: "revocationReason: 0 (other reason, default) or 1 (an issue with the app).") var reason = 0
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/transactions/\(transactionId.pathEscaped)/refund", json: ["reason": reason])
        }
        AdminOutput.signed(answer, json: json)
    }
}

struct ExpireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire", abstract: "End a subscription's current period now (expireSubscription).")
    @Argument(help: "A transaction ID of the subscription.") var transactionId: String
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/transactions/\(transactionId.pathEscaped)/expire")
        }
        AdminOutput.signed(answer, json: json)
    }
}

struct RenewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "renew",
        abstract: "End the current period and begin the next one now (forceRenewalOfSubscription).")
    @Argument(help: "A transaction ID of the subscription.") var transactionId: String
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/transactions/\(transactionId.pathEscaped)/renew")
        }
        AdminOutput.signed(answer, json: json)
    }
}

struct AutoRenewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auto-renew",
        abstract: "Turn a subscription's auto-renew on or off (enable/disableAutoRenewForTransaction).")
    @Argument(help: "A transaction ID of the subscription.") var transactionId: String
    @Argument(help: "on or off.") var state: Toggle
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/transactions/\(transactionId.pathEscaped)/auto-renew", json: ["enabled": state.isOn])
        }
        AdminOutput.signed(answer, json: json)
    }
}

struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve a billing issue or complete an interrupted purchase (resolveIssueForTransaction).")
    @Argument(help: "A transaction ID of the subscription in billing retry, or the pending ID of an interrupted purchase.")
    var id: String
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/transactions/\(id.pathEscaped)/resolve-issue")
        }
        AdminOutput.signed(answer, json: json)
    }
}
