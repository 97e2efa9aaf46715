import ArgumentParser

@main
struct OpenStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openstore",
        abstract: "A local App Store: sells from .storekit catalogs, signs what Apple's verifier accepts.",
        version: OpenStoreVersion.text,
        subcommands: [
            Serve.self, CatalogCommand.self, KeysCommand.self, PurchaseCommand.self,
            WorldCommand.self, TimeCommand.self,
            RefundCommand.self, ExpireCommand.self, RenewCommand.self, AutoRenewCommand.self, ResolveCommand.self,
            FailRenewalsCommand.self, GracePeriodCommand.self, InterruptedPurchasesCommand.self, AskToBuyCommand.self,
            SimulateErrorCommand.self, ClearCommand.self, EventsCommand.self, SubscriptionsCommand.self,
            AppCommand.self, NotificationsCommand.self, ReceiverCommand.self, PreviewCommand.self, RescindConsentCommand.self, DoctorCommand.self, BackendCommand.self, InstancesCommand.self,
        ])
}

/// Where the store keeps its data. Every command that reads the store finds it the same way:
/// the flag, else its environment variable (`OPENSTORE_DATA`, `OPENSTORE_DATABASE_URL`).
struct DataOption: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp(
        "The store's data folder (holds store.sqlite; env OPENSTORE_DATA; default .openstore).", valueName: "folder"))
    var flag: String?
    @Option(name: .customLong("database"), help: ArgumentHelp(
        "The database: sqlite:PATH (default: store.sqlite in the data folder) or postgres://user:password@host:port/database (env OPENSTORE_DATABASE_URL).", valueName: "url"))
    var database: String?

    /// The folder from the flag or `OPENSTORE_DATA`; `serve` may take it from its config file instead.
    var data: String { flag ?? Env.value("OPENSTORE_DATA") ?? ".openstore" }
    var databaseURL: String? { database ?? Env.value("OPENSTORE_DATABASE_URL") }
    var databasePath: String { (try? DatabaseLocation.sqlitePath(url: databaseURL, data: data)) ?? data + "/store.sqlite" }
}
