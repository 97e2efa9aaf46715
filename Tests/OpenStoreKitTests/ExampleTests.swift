import Foundation
import StoreTestSupport
import Testing

/// `storekit-example`, the command-line sample app, run as a process against a live store.
@Suite struct ExampleTests {
    static var executable: URL { ExampleProcess.executable("storekit-example") }

    /// Runs the example to its end; its JSON lines, stderr and exit status.
    static func run(_ arguments: [String], whileRunning: (@Sendable () async throws -> Void)? = nil) async throws -> (lines: [[String: Any]], stderr: String, status: Int32) {
        let run = try await ExampleProcess.run(executable, arguments, whileRunning: whileRunning)
        let lines = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        return (lines, run.stderr, run.status)
    }

    @Test(.timeLimit(.minutes(2))) func everySubcommandPrintsJSONLines() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let common = ["--store", store.url.absoluteString, "--bundle-id", ClientTestStore.bundle, "--customer", "yan", "--world", world]

            // Listing needs no customer (yan does not exist yet); the purchase creates it.
            let products = try await Self.run(["products"] + common + ["k.seeds", "k.plus", "k.unknown"])
            #expect(products.status == 0, "\(products.stderr)")
            #expect(products.lines.map { $0["id"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["k.plus", "k.seeds"])
            let seeds = try #require(products.lines.first { $0["id"] as? String == "k.seeds" })
            #expect(seeds["type"] as? String == "Consumable" && seeds["displayPrice"] as? String == "$0.99")
            #expect((seeds["price"] as? NSNumber)?.decimalValue == Decimal(string: "0.99"))

            let bought = try await Self.run(["buy", "k.plus"] + common + ["--create-customer"])
            #expect(bought.status == 0, "\(bought.stderr)")
            let line = try #require(bought.lines.first)
            #expect(line["verified"] as? Bool == true && line["productID"] as? String == "k.plus")
            let id = try #require(line["transactionID"] as? String)
            // It finished what it bought.
            let unfinished = try await store.admin(.GET, ClientTestStore.api(world) + "/apps/\(ClientTestStore.bundle)/customers/yan/unfinished")
            #expect((unfinished["signedTransactions"] as? [String])?.isEmpty == true)

            let entitlements = try await Self.run(["entitlements"] + common)
            #expect(entitlements.lines.map { $0["transactionID"] as? String } == [id])
            #expect(entitlements.lines.first?["verified"] as? Bool == true)

            let updates = try await Self.run(["updates", "--count", "1"] + common) {
                try await store.waitForFeeds(1)
                try await store.purchaseElsewhere("k.seeds", customer: "yan", world: world)
            }
            #expect(updates.status == 0, "\(updates.stderr)")
            #expect(updates.lines.count == 1)
            #expect(updates.lines.first?["productID"] as? String == "k.seeds")
            #expect(updates.lines.first?["reason"] as? String == "PURCHASE" && updates.lines.first?["verified"] as? Bool == true)
        }
    }

    @Test(.timeLimit(.minutes(2))) func appTransactionIsTheFoodTruckPaidToFreeCheck() async throws {
        try await ClientTestStore.with { store in
            let common = ["--store", store.url.absoluteString, "--bundle-id", ClientTestStore.foodTruck, "--create-customer"]
            let newcomer = try await Self.run(["app-transaction", "--customer", "new"] + common)
            #expect(newcomer.status == 0, "\(newcomer.stderr)")
            #expect(newcomer.lines.first?["originalAppVersion"] as? String == "8.2")
            #expect(newcomer.lines.first?["premium"] as? Bool == false)

            try await store.admin(.PUT, "/storekit/v1/customers/early", [:])
            try await store.admin(.PUT, "/storekit/v1/apps/\(ClientTestStore.foodTruck)/customers/early/app-transaction",
                                  ["originalApplicationVersion": "7.4"])
            let early = try await Self.run(["app-transaction", "--customer", "early"] + common)
            #expect(early.lines.first?["originalAppVersion"] as? String == "7.4")
            #expect(early.lines.first?["premium"] as? Bool == true && early.lines.first?["verified"] as? Bool == true)
        }
    }

    @Test func badInputIsAClearErrorAndAnExitCode() async throws {
        try await ClientTestStore.with { store in
            let wrong = try await Self.run(["products", "--store", store.url.absoluteString, "--bundle-id", "com.example.nope", "--customer", "a", "x"])
            #expect(wrong.status == 1 && wrong.stderr.contains("com.example.nope"))
            let usage = try await Self.run(["teleport", "--store", store.url.absoluteString, "--bundle-id", "b", "--customer", "c"])
            #expect(usage.status == 2 && usage.stderr.contains("unknown command"))
        }
    }
}
