import Foundation
import OpenStoreKit

/// The StoreKit 2 code of each subcommand: what an app would write.
enum Examples {
    static func products(_ ids: [String]) async throws {
        for product in try await Product.products(for: ids) {
            JSONLine.print(["id": .string(product.id), "type": .string(product.type.rawValue),
                            "displayPrice": .string(product.displayPrice), "price": .decimal(product.price)])
        }
    }

    static func buy(_ ids: [String]) async throws {
        guard ids.count == 1, let id = ids.first else { throw UsageError("buy takes one product ID") }
        guard let product = try await Product.products(for: [id]).first else { throw UsageError("the store sells no product \(id)") }
        switch try await product.purchase() {
        case .success(let verification):
            let transaction = verification.unsafePayloadValue
            JSONLine.print(["status": .string("success"), "verified": .bool(verified(verification)),
                            "transactionID": .string(String(transaction.id)), "productID": .string(transaction.productID)])
            // Deliver the content, then finish, as StoreKit asks.
            await transaction.finish()
        case .pending:
            JSONLine.print(["status": .string("pending"), "productID": .string(product.id)])
        case .userCancelled:
            JSONLine.print(["status": .string("userCancelled"), "productID": .string(product.id)])
        }
    }

    static func entitlements() async {
        for await verification in Transaction.currentEntitlements {
            let transaction = verification.unsafePayloadValue
            JSONLine.print(["transactionID": .string(String(transaction.id)), "productID": .string(transaction.productID),
                            "verified": .bool(verified(verification)),
                            "expirationDate": transaction.expirationDate.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null])
        }
    }

    static func updates(count: Int) async {
        guard count > 0 else { return }
        var seen = 0
        for await verification in Transaction.updates {
            let transaction = verification.unsafePayloadValue
            JSONLine.print(["transactionID": .string(String(transaction.id)), "productID": .string(transaction.productID),
                            "reason": .string(transaction.reason.rawValue), "verified": .bool(verified(verification)),
                            "revoked": .bool(transaction.revocationDate != nil)])
            seen += 1
            if seen == count { return }
        }
    }

    /// The paid-to-free check from WWDC22's "What's new with in-app purchase" (Food Truck): the
    /// app became free with version 8.0, so customers who bought it before keep the premium feature.
    static func appTransaction() async throws {
        let shared = try await AppTransaction.shared
        guard case .verified(let appTransaction) = shared else {
            JSONLine.print(["originalAppVersion": .string(shared.unsafePayloadValue.originalAppVersion), "verified": .bool(false),
                            "premium": .bool(false), "verdict": .string("app transaction failed verification")])
            return
        }
        let newBusinessModelMajorVersion = 8
        let originalMajorVersion = appTransaction.originalAppVersion.split(separator: ".").first.flatMap { Int($0) } ?? 0
        let premium = originalMajorVersion < newBusinessModelMajorVersion
        JSONLine.print(["originalAppVersion": .string(appTransaction.originalAppVersion), "verified": .bool(true),
                        "premium": .bool(premium),
                        "verdict": .string(premium ? "paid for the app before 8.0: keeps the premium feature" : "free download: premium is an in-app purchase")])
    }

    static func verified(_ result: VerificationResult<Transaction>) -> Bool {
        if case .verified = result { return true }
        return false
    }
}
