import ArgumentParser
import Foundation
import StoreEngine
import StoreStorage

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "The store's signing keys.", subcommands: [Root.self, KeysCreate.self])

    struct Root: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the store's root certificate, to hand to SignedDataVerifier.",
            discussion: "Apple's verifiers take root certificates as DER. The store is created if it does not exist yet.")
        @OptionGroup var data: DataOption
        @Option(help: "Write the root certificate as DER to this file.") var der: String?
        @Option(help: "Write the root certificate as PEM to this file.") var pem: String?

        func validate() throws {
            if der == nil && pem == nil { throw ValidationError("give --der FILE and/or --pem FILE") }
        }

        func run() async throws {
            let database = try await DatabaseLocation.open(url: data.databaseURL, data: data.data)
            let store = try await AppStore.open(database: database, apps: [], runScheduler: false)
            if let der { try Data(store.authority.rootDER).write(to: URL(fileURLWithPath: der)) }
            if let pem { try Data(store.authority.rootPEM.utf8).write(to: URL(fileURLWithPath: pem)) }
            await database.close()
            print("root certificate written: \([der, pem].compactMap { $0 }.joined(separator: ", "))")
        }
    }
}
