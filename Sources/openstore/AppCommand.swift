import ArgumentParser
import Foundation

/// `openstore app …`: per-app settings a developer makes in App Store Connect, here per world.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "App settings (per world), as in App Store Connect.",
        subcommands: [SetNotificationURL.self, ShowNotificationURL.self])

    struct SetNotificationURL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-notification-url",
            abstract: "Where App Store Server Notifications V2 for the app go (Production and Sandbox URLs are separate).",
            discussion: "An empty --url removes it. Only notifications emitted while a URL is set are sent, as at Apple.")
        @Option(name: .customLong("bundle-id"), help: "The app.") var bundleId: String
        @Option(help: "The URL the store POSTs {\"signedPayload\": …} to.") var url: String
        @Option(help: "Sandbox or Production (default: the app's own environment).") var environment: String?
        @OptionGroup var target: WorldConnection
        @Flag(help: "Print the store's answer as JSON.") var json = false

        func run() async throws {
            var body: [String: Any] = ["url": url]
            if let environment { body["environment"] = environment }
            let answer = try await target.with { client, path in
                try await client.send(.PUT, path + "/apps/\(bundleId.pathEscaped)/notification-url", json: body)
            }
            ShowNotificationURL.print(answer, json: json)
        }
    }

    struct ShowNotificationURL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "notification-url", abstract: "Show an app's notification URLs.")
        @Option(name: .customLong("bundle-id"), help: "The app.") var bundleId: String
        @OptionGroup var target: WorldConnection
        @Flag(help: "Print the store's answer as JSON.") var json = false

        func run() async throws {
            let answer = try await target.with { client, path in
                try await client.send(.GET, path + "/apps/\(bundleId.pathEscaped)/notification-url")
            }
            Self.print(answer, json: json)
        }

        static func print(_ answer: [String: Any], json: Bool) {
            if json { Swift.print(AdminOutput.json(answer)); return }
            Swift.print("\(answer["bundleId"] ?? "?") (sends in \(answer["environment"] ?? "?"))")
            Swift.print("  Production: \(answer["productionURL"] as? String ?? "-")")
            Swift.print("  Sandbox:    \(answer["sandboxURL"] as? String ?? "-")")
        }
    }
}

/// `openstore notifications`: the world's server notifications and how their delivery went.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications", abstract: "List the world's server notifications with their send attempts.")
    @Option(name: .customLong("bundle-id"), help: "Only this app's.") var bundleId: String?
    @OptionGroup var target: WorldConnection
    @Flag(help: "Print the store's answer as JSON.") var json = false

    func run() async throws {
        var query = "?limit=10000"
        if let bundleId { query += "&bundleId=\(bundleId.pathEscaped)" }
        let answer = try await target.with { client, path in try await client.send(.GET, path + "/notifications" + query) }
        if json { print(AdminOutput.json(answer)); return }
        for item in answer["notifications"] as? [[String: Any]] ?? [] {
            let type = [item["notificationType"] as? String, item["subtype"] as? String].compactMap { $0 }.joined(separator: "/")
            let attempts = (item["sendAttempts"] as? [[String: Any]] ?? []).map { "\($0["sendAttemptResult"] ?? "?")" }
            let state = (item["delivered"] as? Bool == true) ? "delivered" : (item["nextAttemptDate"] != nil ? "next \(AdminOutput.date(item["nextAttemptDate"]))" : "undelivered")
            print("\(AdminOutput.date(item["signedDate"]))  \(type)  \(item["notificationUUID"] ?? "")  \(state)  [\(attempts.joined(separator: ", "))]")
        }
    }
}
