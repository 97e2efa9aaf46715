import StoreKit

/// The article's app on the command line. Each run is a launch of the app on a "device" (a
/// folder holding its receipt file and its defaults):
///
///     apphud-paywall-example status  --store URL --customer C [--world W] --device DIR
///     apphud-paywall-example paywall …      the paywall screen
///     apphud-paywall-example buy ID …       taps the product's purchase button
///     apphud-paywall-example restore …      taps "Restore purchases"
///     apphud-paywall-example not-now …      taps "Not now"
///
/// After each, it prints the article's status line for each product. Options: `--bundle-id`
/// (default com.example.paywall), `--shared-secret`, `--products a,b`.
@main @MainActor
struct PaywallApp {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first, ["status", "paywall", "buy", "restore", "not-now"].contains(command) else {
            fail("usage: apphud-paywall-example status|paywall|buy ID|restore|not-now --store URL --customer C --device DIR [--world W] [--bundle-id B] [--shared-secret S] [--products a,b]")
        }
        var options: [String: String] = [:]
        var positional: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                positional.append(argument)
                index += 1
            }
        }
        guard let storeText = options["store"], let store = URL(string: storeText), store.host != nil else { fail("--store URL is required") }
        guard let customer = options["customer"] else { fail("--customer is required") }
        guard let device = options["device"] else { fail("--device DIR is required (the device's receipt and defaults)") }
        let deviceFolder = URL(fileURLWithPath: device, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: deviceFolder, withIntermediateDirectories: true)
        } catch {
            fail("cannot create \(device): \(error)")
        }

        // The device: an App Store account signed in, its receipt folder and its defaults.
        OpenStoreKit.configure(OpenStoreKit.Configuration(
            store: store, bundleID: options["bundle-id"] ?? "com.example.paywall", customer: customer,
            world: options["world"] ?? "default", createsCustomer: true))
        AppReceiptFile.directory = deviceFolder.appendingPathComponent("receipts", isDirectory: true)
        guard let defaults = UserDefaults(suiteName: deviceFolder.appendingPathComponent("defaults").path) else {
            fail("cannot open the device's defaults in \(device)")
        }
        IAPManager.shared.defaults = defaults
        IAPManager.shared.verifyReceiptHost = store

        let ids = Set((options["products"] ?? "\(subscription_1),\(subscription_2)").split(separator: ",").map(String.init))
        let secret = options["shared-secret"] ?? shared_secret
        await withCheckedContinuation { (loaded: CheckedContinuation<Void, Never>) in
            ProductsStore.shared.initializeProducts(ids: ids, sharedSecret: secret) { loaded.resume() }
        }
        // A device that has a receipt checks it at launch; a fresh one shows what it knows (nothing).
        if let receipt = Bundle.main.openStoreReceiptURL, FileManager.default.fileExists(atPath: receipt.path) {
            await withCheckedContinuation { (checked: CheckedContinuation<Void, Never>) in
                IAPManager.shared.refreshSubscriptionsStatus(callback: { checked.resume() }, failure: { _ in checked.resume() })
            }
        }

        let view = PurchaseView()
        switch command {
        case "paywall":
            view.render().forEach { print($0) }
        case "buy":
            guard let id = positional.first, let product = ProductsStore.shared.products.first(where: { $0.productIdentifier == id }) else {
                fail("buy: name one of \(ProductsStore.shared.products.map(\.productIdentifier).sorted().joined(separator: ", "))")
            }
            let bought = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                view.purchaseProduct(skproduct: product) { done.resume(returning: $0) }
            }
            if !bought { print("Purchase failed") }
        case "restore":
            let restored = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                view.restorePurchases { done.resume(returning: $0) }
            }
            if !restored { print("Restore failed") }
        case "not-now":
            view.dismiss()
        default:
            break
        }
        for product in ProductsStore.shared.products {
            print(product.subscriptionStatus())
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(64)
    }
}
