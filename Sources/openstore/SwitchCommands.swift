import ArgumentParser
import Foundation

/// The Transaction Manager's switches, after `SKTestSession`'s properties: each overrides the
/// catalog's setting for one world until the world is reset.

/// Sets one switch through `PATCH …/settings` and prints the world.
private func setSwitch(_ key: String, _ value: Bool, _ target: WorldConnection) async throws {
    let world = try await target.with { client, path in try await client.send(.PATCH, path + "/settings", json: [key: value]) }
    print(AdminOutput.world(world))
}

struct FailRenewalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fail-renewals",
        abstract: "Make renewals fail with a billing issue, or succeed again (shouldEnterBillingRetryOnRenewal).")
    @Argument(help: "on or off.") var state: Toggle
    @OptionGroup var target: WorldConnection

    func run() async throws { try await setSwitch("failRenewals", state.isOn, target) }
}

struct GracePeriodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grace-period",
        abstract: "Give failed renewals a billing grace period (billingGracePeriodIsEnabled; needs fail-renewals on).")
    @Argument(help: "on or off.") var state: Toggle
    @OptionGroup var target: WorldConnection

    func run() async throws { try await setSwitch("billingGracePeriod", state.isOn, target) }
}

struct InterruptedPurchasesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interrupted-purchases",
        abstract: "Interrupt purchases until resolved with `openstore resolve` (interruptedPurchasesEnabled).")
    @Argument(help: "on or off.") var state: Toggle
    @OptionGroup var target: WorldConnection

    func run() async throws { try await setSwitch("interruptedPurchases", state.isOn, target) }
}

struct AskToBuyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask-to-buy",
        abstract: "Ask to Buy: turn it on or off, list the requests waiting, approve or decline one.",
        discussion: """
        With Ask to Buy on, a purchase answers status "pending" with a pendingId; \
        `openstore ask-to-buy approve ID` completes it (the app gets it as unfinished), `decline ID` drops it.
        """)

    enum Action: String, ExpressibleByArgument, CaseIterable { case on, off, list, approve, decline }

    @Argument(help: "on, off, list, approve ID or decline ID.") var action: Action
    @Argument(help: "The pending ID (for approve and decline).") var id: String?
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func validate() throws {
        switch action {
        case .approve, .decline: guard id != nil else { throw ValidationError("\(action.rawValue) needs the pending ID") }
        case .on, .off, .list: guard id == nil else { throw ValidationError("\(action.rawValue) takes no ID") }
        }
    }

    func run() async throws {
        switch action {
        case .on, .off:
            try await setSwitch("askToBuy", action == .on, target)
        case .list:
            let answer = try await target.with { client, path in try await client.send(.GET, path + "/pending-purchases") }
            if json { print(AdminOutput.json(answer)); return }
            for item in answer["pendingPurchases"] as? [[String: Any]] ?? [] {
                let request = item["request"] as? [String: Any] ?? [:]
                print("\(item["id"] ?? "?")  \(item["kind"] ?? "?")  \(request["bundleId"] ?? "?")  \(request["productId"] ?? "?")  customer \(request["customer"] ?? "?")  since \(AdminOutput.date(item["createdMs"]))")
            }
        case .approve, .decline:
            let answer = try await target.with { client, path in
                try await client.send(.POST, path + "/pending-purchases/\((id ?? "").pathEscaped)/\(action.rawValue)")
            }
            if action == .decline && !json { print("declined \(id ?? "")"); return }
            AdminOutput.signed(answer, json: json)
        }
    }
}

struct SimulateErrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-error",
        abstract: "Make a StoreKit API fail with an error, or stop it failing (setSimulatedError(_:forAPI:)).",
        discussion: """
        API is one of the nine `_storeKitErrors` APIs, by name or slug: load-products, purchase, verification, \
        app-store-sync, subscription-status, app-transaction, manage-subscriptions-sheet, refund-request-sheet, \
        offer-code-redeem-sheet. ERROR is the StoreKit error code to answer with (e.g. userCancelled, \
        networkError, productUnavailable). With no API, lists what is set.
        """)
    @Argument(help: "The StoreKit API.") var api: String?
    @Argument(help: "The error to fail with.") var error: String?
    @Flag(help: "Stop the API failing.") var clear = false
    @OptionGroup var target: WorldConnection

    func validate() throws {
        if api == nil { guard error == nil && !clear else { throw ValidationError("name the API") }; return }
        guard (error == nil) == clear else { throw ValidationError("give either an ERROR or --clear") }
    }

    func run() async throws {
        let answer = try await target.with { client, path in
            guard let api else { return try await client.send(.GET, path + "/simulated-errors") }
            let route = path + "/simulated-errors/\(api.pathEscaped)"
            if let error { return try await client.send(.PUT, route, json: ["error": error]) }
            return try await client.send(.DELETE, route)
        }
        let items = answer["simulatedErrors"] as? [[String: Any]] ?? [answer]
        for item in items {
            print("\(item["slug"] ?? "?")  \(item["error"] as? String ?? "(no error)")")
        }
    }
}
