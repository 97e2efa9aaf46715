import ArgumentParser

@main
struct OpenStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openstore",
        abstract: "A local App Store: sells from .storekit catalogs, signs what Apple's verifier accepts.",
        subcommands: [
            Serve.self, CatalogCommand.self, KeysCommand.self, PurchaseCommand.self,
            WorldCommand.self, TimeCommand.self,
            RefundCommand.self, ExpireCommand.self, RenewCommand.self, AutoRenewCommand.self, ResolveCommand.self,
            FailRenewalsCommand.self, GracePeriodCommand.self, InterruptedPurchasesCommand.self, AskToBuyCommand.self,
            SimulateErrorCommand.self, ClearCommand.self, EventsCommand.self, SubscriptionsCommand.self,
            AppCommand.self, NotificationsCommand.self, ReceiverCommand.self, PreviewCommand.self, RescindConsentCommand.self,
        ])
}

/// Where the store keeps its data. Every command that reads the store finds it the same way.
struct DataOption: ParsableArguments {
    @Option(name: .long, help: "The store's data folder (holds store.sqlite).")
    var data: String = ".openstore"

    var databasePath: String { data + "/store.sqlite" }
}
