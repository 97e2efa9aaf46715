import ArgumentParser
import Foundation
import StoreStorage

/// `openstore instances`: which store instances share the PostgreSQL database and which worlds each
/// serves (docs/deploy.md). Reads the lease tables directly, so it works with every instance down.
struct InstancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instances",
        abstract: "List the live store instances sharing the PostgreSQL database, and the worlds each owns.")
    @OptionGroup var data: DataOption
    @Option(help: "Count an instance as live when its last heartbeat is at most this many seconds old.") var within: Double = 10
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        guard let url = data.databaseURL, url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw ValidationError("instances share a PostgreSQL database: give --database postgres://… (or OPENSTORE_DATABASE_URL); a SQLite store has one instance")
        }
        let database = try await DatabaseLocation.open(url: url, data: data.data)
        let instances = try await database.liveInstances(withinMs: Int64(within * 1000))
        let unowned = try await database.unleasedWorlds()
        await database.close()
        if json {
            let object: [String: Any] = [
                "instances": instances.map { ["id": $0.id, "address": $0.address, "startedMs": $0.startedMs,
                                              "heartbeatAgeMs": $0.heartbeatAgeMs, "worlds": $0.worlds] as [String: Any] },
                "unownedWorlds": unowned,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if instances.isEmpty { print("no live instance") }
        for instance in instances {
            print("\(instance.id)  \(instance.address)  heartbeat \(instance.heartbeatAgeMs) ms ago  \(instance.worlds.count) world(s)")
            for world in instance.worlds { print("    \(world)") }
        }
        if !unowned.isEmpty { print("unowned (taken by the next request or heartbeat): \(unowned.joined(separator: ", "))") }
    }
}
