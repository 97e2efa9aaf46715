// storekit-example: StoreKit 2 code on the command line, against a running `openstore serve`.
// Uses only the OpenStoreKit library. Every subcommand prints one JSON object per line.
//
//   storekit-example products --store URL --bundle-id B --customer C [--world W] ID…
//   storekit-example buy ID --store URL --bundle-id B --customer C
//   storekit-example entitlements --store URL --bundle-id B --customer C
//   storekit-example updates --count N --store URL --bundle-id B --customer C
//   storekit-example app-transaction --store URL --bundle-id B --customer C
//
// Without --store/--bundle-id/--customer, OPENSTORE_URL, OPENSTORE_BUNDLE_ID and OPENSTORE_CUSTOMER are used.
import Foundation
import OpenStoreKit

let usage = """
    usage: storekit-example <products|buy|entitlements|updates|app-transaction> [arguments] \
    --store URL --bundle-id B --customer C [--world W] [--storefront S] [--create-customer] [--count N]
    """

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    OpenStoreKit.configure(try arguments.configuration())
    switch arguments.command {
    case "products": try await Examples.products(arguments.positional)
    case "buy": try await Examples.buy(arguments.positional)
    case "entitlements": await Examples.entitlements()
    case "updates": await Examples.updates(count: arguments.count)
    case "app-transaction": try await Examples.appTransaction()
    default: throw UsageError("unknown command \(arguments.command)\n\(usage)")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("storekit-example: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("storekit-example: \(error)\n".utf8))
    exit(1)
}
