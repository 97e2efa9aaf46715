import ArgumentParser
import Foundation
import StoreEngine

/// `openstore world …`: the isolated stores tests run in. A test creates one, uses it, deletes it.
struct WorldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "world",
        abstract: "Create, list, reset and delete worlds (isolated customers, purchases, clock and settings).",
        subcommands: [Create.self, List.self, Show.self, Reset.self, Delete.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a world.")
        @Argument(help: "The world's name (1–64 of A–Z a–z 0–9 - _ .).") var name: String
        @Option(help: "Clock rate: an SKTestSession.TimeRate name (oneSecondIsOneDay), its raw value (6) or a multiplier (720x). Default: the catalog's _timeRate.")
        var rate: String?
        @OptionGroup var connection: AdminConnection
        @Flag(help: "Print the store's answer as JSON.") var json = false

        func run() async throws {
            let client = connection.client()
            defer { client.shutdown() }
            var body: [String: Any] = ["id": name]
            if let rate { body["rate"] = TimeRate(rate)?.apiValue ?? rate }  // the API's one spelling
            let world = try await client.send(.POST, "/admin/v1/worlds", json: body)
            print(json ? AdminOutput.json(world) : AdminOutput.world(world))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the worlds, with their clocks and switches.")
        @OptionGroup var connection: AdminConnection
        @Flag(help: "Print the store's answer as JSON.") var json = false

        func run() async throws {
            let client = connection.client()
            defer { client.shutdown() }
            let answer = try await client.send(.GET, "/admin/v1/worlds")
            if json { print(AdminOutput.json(answer)); return }
            for world in answer["worlds"] as? [[String: Any]] ?? [] { print(AdminOutput.world(world)) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one world.")
        @Argument(help: "The world's name.") var name: String
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            let client = connection.client()
            defer { client.shutdown() }
            print(AdminOutput.json(try await client.send(.GET, "/admin/v1/worlds/\(name.pathEscaped)")))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reset a world: every customer, purchase and switch is gone; the clock keeps its time.")
        @Argument(help: "The world's name.") var name: String
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            let client = connection.client()
            defer { client.shutdown() }
            print(AdminOutput.world(try await client.send(.POST, "/admin/v1/worlds/\(name.pathEscaped)/reset")))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a world and everything in it (the default world can only be reset).")
        @Argument(help: "The world's name.") var name: String
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            let client = connection.client()
            defer { client.shutdown() }
            _ = try await client.send(.DELETE, "/admin/v1/worlds/\(name.pathEscaped)")
            print("deleted \(name)")
        }
    }
}
