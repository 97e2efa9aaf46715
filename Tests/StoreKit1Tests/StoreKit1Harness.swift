import StoreKit
import StoreTestSupport
import Testing

/// One receipt folder for this test process (receipt paths name the world and customer, so
/// parallel tests do not share files), removed when the test process exits (`TemporaryFolder`:
/// the test command fails on any `openstore-*` folder left behind).
let testReceiptFolder: URL = {
    let url = TemporaryFolder.makeForProcess("sk1-receipts")
    AppReceiptFile.directory = url
    return url
}()

/// A `PremiumStore` on one "device" of a live store, and the events its callbacks reported.
struct Device {
    let manager: PremiumStore
    let connection: StoreConnection
    private var iterator: AsyncStream<PremiumStore.Event>.Iterator

    init(_ store: SK1TestStore, customer: String, world: String) {
        _ = testReceiptFolder
        connection = store.device(customer, world: world)
        manager = PremiumStore(sharedSecret: SK1TestStore.sharedSecret, verifyReceiptHost: store.url)
        iterator = manager.events.makeAsyncIterator()
    }

    /// Runs `body` as this device: StoreKit's calls (and `SKPaymentQueue.default()`) use its connection.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await OpenStoreKit.withConnection(connection) { try await body() }
    }

    /// The next `count` events, in the order the callbacks came. Waits without a limit of its
    /// own (the test's time limit bounds it).
    mutating func next(_ count: Int = 1) async -> [PremiumStore.Event] {
        var events: [PremiumStore.Event] = []
        while events.count < count, let event = await iterator.next() { events.append(event) }
        return events
    }
}

/// What a transaction event says, without its dynamic transaction ID.
func shape(_ event: PremiumStore.Event) -> String {
    switch event {
    case .updated(let product, let state, _, let error):
        return "\(product) \(state)" + (error.map { " \($0)" } ?? "")
    case .removed(let product): return "removed \(product)"
    case .products(let ids, let invalid): return "products \(ids) invalid \(invalid)"
    case .requestFailed(let code): return "request failed \(code)"
    case .receiptRefreshed: return "receipt refreshed"
    case .restoreFinished: return "restore finished"
    case .restoreFailed(let code): return "restore failed \(code)"
    case .storePayment(let product): return "store payment \(product)"
    }
}

func transactionID(_ event: PremiumStore.Event?) -> String? {
    if case .updated(_, _, let id, _)? = event { return id }
    return nil
}

/// The IDs of a StoreKit 2 sequence.
func ids(_ sequence: Transaction.Transactions) async -> [String] {
    var found: [String] = []
    for await result in sequence { found.append(String(result.unsafePayloadValue.id)) }
    return found
}
