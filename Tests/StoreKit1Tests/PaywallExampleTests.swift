import StoreKit
import StoreTestSupport
import Testing

/// The Apphud article's paywall app (`apphud-paywall-example`), run as a process against a live
/// store, one launch per step, as a person would use it: the article's status lines before a
/// purchase, after it, after a renewal, after expiry, and on a fresh device after a restore.
@Suite struct PaywallExampleTests {
    static var executable: URL { ExampleProcess.executable("apphud-paywall-example") }

    /// Runs one launch of the app to its end: its output lines and exit status.
    static func run(_ arguments: [String]) async throws -> (lines: [String], stderr: String, status: Int32) {
        let run = try await ExampleProcess.run(executable, arguments)
        return (run.stdout.split(separator: "\n").map(String.init), run.stderr, run.status)
    }

    /// The article's status lines of one launch, by product title.
    static func statuses(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("Subscription ") } }

    @Test(.timeLimit(.minutes(3))) func statusLinesBeforeAndAfterExpiryAndAfterRestore() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            let phone = store.folder.appendingPathComponent("phone").path
            let tablet = store.folder.appendingPathComponent("tablet").path
            func launch(_ command: [String], device: String) async throws -> [String] {
                let run = try await Self.run(command + ["--store", store.url.absoluteString, "--customer", "kim", "--world", world,
                                                        "--device", device])
                #expect(run.status == 0, "\(command): \(run.stderr)")
                return run.lines
            }

            #expect(Self.statuses(try await launch(["status"], device: phone)) == [
                "Subscription not purchased: Premium Monthly", "Subscription not purchased: Premium Weekly",
            ])
            let paywall = try await launch(["paywall"], device: phone)
            #expect(paywall.contains("[ Premium Weekly: $0.99 per week ]") && paywall.contains("[ Premium Monthly: $2.99 per month ]"))
            #expect(paywall.contains("Terms of use | Restore purchases | Privacy policy") && paywall.contains("Not now"))
            #expect(try await launch(["not-now"], device: phone).contains("Paywall dismissed"))

            let bought = try await launch(["buy", "sk1.weekly"], device: phone)
            let active = Self.statuses(bought)
            #expect(active.first == "Subscription not purchased: Premium Monthly")
            #expect(active.last?.hasPrefix("Subscription active: Premium Weekly until:") == true, "\(bought)")
            #expect(try await launch(["paywall"], device: phone).contains("[ Premium Weekly: $0.99 per week ] (disabled: active)"))

            // A week later the subscription renewed: active, until a later date.
            try await store.advanceTime("P8D", world: world)
            let renewed = Self.statuses(try await launch(["status"], device: phone))
            #expect(renewed.last?.hasPrefix("Subscription active: Premium Weekly until:") == true)
            #expect(renewed.last != active.last)

            // The customer turns auto-renew off; after the period ends, it has expired.
            let subscriptions = try await store.admin(.GET, "/admin/v1/worlds/\(world)/apps/\(SK1TestStore.bundle)/customers/kim/subscriptions")
            let latest = try #require(Self.latestTransaction(subscriptions))
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(latest)/auto-renew", ["enabled": false])
            try await store.advanceTime("P8D", world: world)
            let expired = Self.statuses(try await launch(["status"], device: phone))
            #expect(expired.last?.hasPrefix("Subscription expired: Premium Weekly at: ") == true, "\(expired)")
            #expect(expired.first == "Subscription not purchased: Premium Monthly")

            // A fresh device knows nothing until the customer restores; then it shows the same.
            #expect(Self.statuses(try await launch(["status"], device: tablet)) == [
                "Subscription not purchased: Premium Monthly", "Subscription not purchased: Premium Weekly",
            ])
            #expect(Self.statuses(try await launch(["restore"], device: tablet)) == expired)
        }
    }

    /// The transaction ID of the customer's latest subscription transaction, from the admin
    /// subscriptions answer.
    static func latestTransaction(_ answer: [String: Any]) -> String? {
        let items = answer["subscriptions"] as? [[String: Any]] ?? []
        return (items.first?["transaction"] as? [String: Any])?["transactionId"] as? String
    }
}
