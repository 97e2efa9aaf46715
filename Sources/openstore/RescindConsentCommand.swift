import ArgumentParser
import Foundation

/// `RESCIND_CONSENT`: the customer, or their parent, withdrew consent for the app; the app's
/// server gets the notification with `appData` (App Store Server Notifications, November 2025).
struct RescindConsentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescind-consent",
        abstract: "Withdraw a customer's consent for an app: sends RESCIND_CONSENT with appData.")
    @Option(help: "The app's bundle ID.") var bundleId: String
    @Option(help: "The customer.") var customer: String
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        let answer = try await target.with { client, path in
            try await client.send(.POST, path + "/apps/\(bundleId.pathEscaped)/customers/\(customer.pathEscaped)/rescind-consent")
        }
        if json { print(AdminOutput.json(answer)); return }
        let appTransactionId = (answer["appTransaction"] as? [String: Any])?["appTransactionId"] ?? "?"
        print("RESCIND_CONSENT sent for \(customer) (appTransactionId=\(appTransactionId))")
    }
}
