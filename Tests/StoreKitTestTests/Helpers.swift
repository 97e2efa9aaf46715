import Foundation
import StoreKit
import StoreKitTest
import Testing

/// The test target's `.storekit` files.
enum Configurations {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    static var garden: URL { folder.appendingPathComponent("Garden.storekit") }
    static var broken: URL { folder.appendingPathComponent("Broken.storekit") }
}

/// The IDs of a StoreKit transaction sequence (`Transaction.all`, `currentEntitlements`, …).
func ids(_ sequence: Transaction.Transactions) async -> [UInt64] {
    var out: [UInt64] = []
    for await result in sequence {
        if case .verified(let transaction) = result { out.append(transaction.id) }
    }
    return out
}

/// The verified transaction a purchase returned, or nil (pending, cancelled, unverified).
func transaction(of result: Product.PurchaseResult) -> Transaction? {
    if case .success(.verified(let transaction)) = result { return transaction }
    return nil
}

/// `Transaction.updates` collected from the moment it is called: a `Task {}` iterates it (as app
/// code does), so it inherits the test and reaches the test's session.
final class UpdatesRecorder: Sendable {
    let stream: AsyncStream<Transaction>
    private let task: Task<Void, Never>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Transaction.self)
        self.stream = stream
        task = Task {
            for await update in Transaction.updates {
                if case .verified(let transaction) = update { continuation.yield(transaction) }
            }
            continuation.finish()
        }
    }

    /// The next `count` updates, in the order they came (the test's time limit bounds the wait).
    func next(_ count: Int) async -> [Transaction] {
        var out: [Transaction] = []
        for await transaction in stream {
            out.append(transaction)
            if out.count == count { break }
        }
        return out
    }

    deinit { task.cancel() }
}
