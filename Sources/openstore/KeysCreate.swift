import ArgumentParser
import Foundation
import StoreEngine
import StoreSigning
import StoreStorage

/// `openstore keys create`: an App Store Server API key, as App Store Connect hands one out.
struct KeysCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an App Store Server API key for an app (and world): writes the .p8, prints issuer ID and key ID.",
        discussion: """
        Like App Store Connect, the private key is shown once: it is written to --out \
        (AuthKey_KEYID.p8 by default) and never stored by the store, which keeps only the public half. \
        A running `openstore serve` on the same --data accepts the key at once. Pass the values to \
        Apple's AppStoreServerAPIClient(signing_key, key_id, issuer_id, bundle_id, environment).
        """)

    @OptionGroup var data: DataOption
    @Option(name: .customLong("bundle-id"), help: "The app the key may call the Server API for (the token's bid).")
    var bundleId: String
    @Option(help: "The world (state namespace) the key opens.")
    var world: String = AppStore.defaultWorld
    @Option(help: "Where to write the private key (PKCS#8 PEM). Default: AuthKey_KEYID.p8 in the current folder.")
    var out: String?
    @Flag(help: "Print issuer ID, key ID, bundle ID, world and key file as JSON.")
    var json = false

    func validate() throws {
        guard !bundleId.isEmpty else { throw ValidationError("--bundle-id must not be empty") }
        guard !world.isEmpty else { throw ValidationError("--world must not be empty") }
    }

    func run() async throws {
        if let out { try OutputPath.checkWritable(out, option: "--out") }
        let database = try await DatabaseLocation.open(url: data.databaseURL, data: data.data)
        let generated: GeneratedAPIKey
        let known: [String]
        do {
            known = try await database.apps().map(\.bundleId)
            // A key of a world that doesn't exist would open nothing (every call answers 401), so
            // refuse it here rather than hand out a key that can never work.
            if world != AppStore.defaultWorld, try await !database.worlds().contains(where: { $0.id == world }) {
                throw ValidationError("no world named \(world) in this store: create it first (openstore world create \(world))")
            }
            generated = try await AppStore.createAPIKey(in: database, bundleId: bundleId, world: world)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        let path = out ?? "AuthKey_\(generated.key.keyId).p8"
        try Data(generated.privateKeyP8.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        _ = chmod(path, 0o600)
        if json {
            let object: [String: String] = [
                "issuerId": generated.key.issuerId, "keyId": generated.key.keyId, "bundleId": bundleId,
                "world": world, "privateKeyFile": path,
            ]
            let text = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: text, as: UTF8.self))
        } else {
            print("issuer ID: \(generated.key.issuerId)")
            print("key ID:    \(generated.key.keyId)")
            print("bundle ID: \(bundleId)  world: \(world)")
            print("private key written: \(path)")
        }
        if !known.isEmpty && !known.contains(bundleId) {
            FileHandle.standardError.write(Data("note: \(bundleId) is not among the apps this store has served (\(known.joined(separator: ", "))); requests answer 4040003 until it is.\n".utf8))
        }
    }
}
