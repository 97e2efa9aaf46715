import Foundation
import OpenStoreKit

/// StoreKit 1's payment queue, over the StoreKit 2 client: a payment becomes
/// `Product.purchase(options:)`, the observers hear of every change (`Transaction.updates`
/// underneath), `finishTransaction` is `Transaction.finish()`, a restore is `AppStore.sync()`
/// then `Transaction.all`. Both APIs see one store, so a purchase made here is in StoreKit 2's
/// `currentEntitlements` and `updates`, and the reverse.
///
/// Observers are called on the main queue, in StoreKit 1's order: `.purchasing` when a payment is
/// added, then `.purchased`, `.failed` or `.deferred`. The first observer added starts the queue
/// listening to the store; the transactions the app had not finished then arrive again as
/// `.purchased`, as at an app's launch.
open class SKPaymentQueue: NSObject, @unchecked Sendable {
    /// The store connection this queue buys through (nil when none is configured: every
    /// operation then fails with `SKError.clientInvalid` saying how to configure one).
    public let connection: StoreConnection?
    private let configurationError: SKError?
    private let state = LockedBox(State())

    private struct State {
        var observers: [any SKPaymentTransactionObserver] = []
        var transactions: [SKPaymentTransaction] = []
        /// Store transactions already delivered, so one reported twice (the purchase's answer and
        /// `Transaction.updates`) reaches observers once.
        var settled: Set<UInt64> = []
        var listener: Task<Void, Never>?
        var storefront: SKStorefront?
        /// Observer calls waiting for the main actor, run one after the other.
        var delivery: AsyncStream<Unchecked<() -> Void>>.Continuation?
    }

    private static let queues = LockedBox<[ObjectIdentifier: SKPaymentQueue]>([:])

    init(connection: StoreConnection?, configurationError: SKError?) {
        self.connection = connection
        self.configurationError = configurationError
        super.init()
    }

    /// The queue of the connection in effect (`OpenStoreKit.connection()`): one per account and
    /// app, as a device has one. Code in `OpenStoreKit.withConnection(c) { … }` gets `c`'s queue,
    /// so tests can run side by side.
    open class func `default`() -> Self {
        let resolved = Result { try OpenStoreKit.connection() }
        let queue = queues.update { all -> SKPaymentQueue in
            let key = (try? resolved.get()).map(ObjectIdentifier.init) ?? ObjectIdentifier(SKPaymentQueue.self)
            if let existing = all[key] { return existing }
            let made: SKPaymentQueue
            switch resolved {
            case .success(let connection): made = SKPaymentQueue(connection: connection, configurationError: nil)
            case .failure(let error):
                made = SKPaymentQueue(connection: nil, configurationError: SKError(
                    .clientInvalid, message: "OpenStoreKit is not configured: \(error)", underlying: error))
            }
            all[key] = made
            return made
        }
        guard let typed = queue as? Self else {
            preconditionFailure("SKPaymentQueue.default() is an SKPaymentQueue; a subclass (\(self)) has no default queue of its own")
        }
        return typed
    }

    /// Whether this account may pay. Parental restrictions do not exist here, so always true.
    open class func canMakePayments() -> Bool { true }

    /// Weak, as StoreKit's.
    open weak var delegate: (any SKPaymentQueueDelegate)?

    /// The transactions in the queue: not finished yet.
    open var transactions: [SKPaymentTransaction] { state.get().transactions }

    /// Mirrors StoreKit's `SKPaymentQueue.transactionObservers`: the observers added and not yet removed, in order.
    open var transactionObservers: [any SKPaymentTransactionObserver] { state.get().observers }

    /// The customer's storefront, once the queue has listened to the store (nil before).
    open var storefront: SKStorefront? { state.get().storefront }

    // MARK: Observers

    /// Adds an observer (kept until removed). The first one starts listening to the store; the
    /// app's unfinished transactions then arrive as `.purchased`.
    open func add(_ observer: any SKPaymentTransactionObserver) {
        state.update { state in
            guard !state.observers.contains(where: { $0 === observer }) else { return }
            state.observers.append(observer)
            if state.listener == nil, let connection {
                state.listener = Task { await OpenStoreKit.withConnection(connection) { await self.listen(connection) } }
            }
        }
    }

    /// Removes an observer; with none left the queue stops listening to the store.
    open func remove(_ observer: any SKPaymentTransactionObserver) {
        state.update { state in
            state.observers.removeAll { $0 === observer }
            if state.observers.isEmpty {
                state.listener?.cancel()
                state.listener = nil
            }
        }
    }

    // MARK: Payments

    /// Adds a payment: observers get a `.purchasing` transaction now, then `.purchased`,
    /// `.deferred` (Ask to Buy) or `.failed` with an `SKError`. The payment is copied.
    open func add(_ payment: SKPayment) {
        let transaction = SKPaymentTransaction(payment: SKPayment(storage: payment.storage), state: .purchasing)
        state.update { $0.transactions.append(transaction) }
        notifyUpdated([transaction])
        guard let connection else {
            fail(transaction, configurationError ?? SKError(.clientInvalid, message: "OpenStoreKit is not configured"))
            return
        }
        Task { await OpenStoreKit.withConnection(connection) { await self.process(transaction, connection) } }
    }

    private func process(_ transaction: SKPaymentTransaction, _ connection: StoreConnection) async {
        let payment = transaction.payment
        do {
            if payment.requestData != nil {
                throw SKError(.unauthorizedRequestData, message: "SKPayment.requestData is reserved by Apple and must be nil")
            }
            let product: Product
            if let known = payment.storage.product?.product {
                product = known
            } else if let loaded = try await Product.products(for: [payment.productIdentifier]).first {
                product = loaded
            } else {
                throw SKError(.paymentInvalid, message: "the store sells no product \"\(payment.productIdentifier)\" for \(connection.configuration.bundleID)")
            }
            // Not StoreKit 2's own purchase: its `Transaction.updates` listeners hear of it too.
            switch try await connection.purchaseForPaymentQueue(product, options: Self.options(for: payment)) {
            case .success(let verification):
                await settle(verification.unsafePayloadValue, into: transaction, connection: connection)
            case .pending:
                transaction.update(.deferred)
                notifyUpdated([transaction])
            case .userCancelled:
                throw SKError(.paymentCancelled, message: "the customer cancelled the payment for \(payment.productIdentifier)")
            }
        } catch {
            fail(transaction, SKError(storeKit: error))
        }
    }

    /// StoreKit 2's purchase options for a StoreKit 1 payment.
    static func options(for payment: SKPayment) -> Set<Product.PurchaseOption> {
        var options: Set<Product.PurchaseOption> = []
        if payment.quantity != 1 { options.insert(.quantity(payment.quantity)) }
        if let name = payment.applicationUsername, let token = UUID(uuidString: name) { options.insert(.appAccountToken(token)) }
        if payment.simulatesAskToBuyInSandbox { options.insert(.simulatesAskToBuyInSandbox(true)) }
        if let discount = payment.paymentDiscount {
            options.insert(.promotionalOffer(offerID: discount.identifier, keyID: discount.keyIdentifier, nonce: discount.nonce,
                                             signature: Data(base64Encoded: discount.signature) ?? Data(),
                                             timestamp: discount.timestamp.intValue))
        }
        return options
    }

    private func fail(_ transaction: SKPaymentTransaction, _ error: SKError) {
        transaction.update(.failed, error: error)
        notifyUpdated([transaction])
    }

    /// Delivers a store transaction once: into the payment that made it, else a payment of that
    /// product still purchasing or deferred (an Ask to Buy approval), else a new transaction
    /// (a renewal, an unfinished transaction at launch, a purchase made elsewhere). The receipt
    /// file is refreshed first, as a device's is when the observer hears of a purchase.
    private func settle(_ purchase: Transaction, into candidate: SKPaymentTransaction?, connection: StoreConnection) async {
        let target: SKPaymentTransaction? = state.update { state in
            guard state.settled.insert(purchase.id).inserted else { return nil }
            let waiting: (SKPaymentTransaction) -> Bool = { [.purchasing, .deferred].contains($0.transactionState) }
            let chosen: SKPaymentTransaction
            if let candidate, waiting(candidate) {
                chosen = candidate
            } else if let pending = state.transactions.first(where: { waiting($0) && $0.payment.productIdentifier == purchase.productID }) {
                chosen = pending
            } else {
                chosen = SKPaymentTransaction(payment: Self.payment(for: purchase), state: .purchased)
                state.transactions.append(chosen)
            }
            chosen.update(.purchased, transaction: purchase)
            return chosen
        }
        guard let target else { return }
        await refreshReceipt(connection)
        notifyUpdated([target])
    }

    static func payment(for purchase: Transaction) -> SKPayment {
        SKPayment(storage: .init(productIdentifier: purchase.productID, quantity: purchase.purchasedQuantity,
                                 applicationUsername: purchase.appAccountToken?.uuidString.lowercased()))
    }

    private func refreshReceipt(_ connection: StoreConnection) async {
        do {
            try await AppReceiptFile.refresh(connection)
        } catch {
            StoreKitLog.error("refreshing the app receipt failed: \(error)")
        }
    }

    // MARK: Listening

    private func listen(_ connection: StoreConnection) async {
        // Connect first (creating the account if so configured), so the storefront can be read.
        if (try? await connection.connect()) != nil, let current = await Storefront.current {
            let storefront = SKStorefront(countryCode: current.countryCode, identifier: current.id)
            state.update { $0.storefront = storefront }
        }
        // Every change, StoreKit 2 purchases of this process included: on a device those reach
        // the observers too (`Transaction.updates` leaves them out for StoreKit 2's own listeners).
        for await result in connection.allTransactionUpdates() {
            if Task.isCancelled { return }
            let purchase = result.unsafePayloadValue
            if purchase.revocationDate != nil {
                if purchase.ownershipType == .familyShared {
                    notify { $0.paymentQueue(self, didRevokeEntitlementsForProductIdentifiers: [purchase.productID]) }
                }
                continue
            }
            await settle(purchase, into: nil, connection: connection)
        }
    }

    // MARK: Finishing

    /// Removes a transaction from the queue; for a purchased or restored one, tells the store the
    /// content was delivered (`Transaction.finish()`: it leaves StoreKit 2's `unfinished` too).
    /// Observers then get `paymentQueue(_:removedTransactions:)`. A transaction still purchasing
    /// cannot be finished (StoreKit raises an exception; here it is logged and ignored).
    open func finishTransaction(_ transaction: SKPaymentTransaction) {
        guard transaction.transactionState != .purchasing else {
            StoreKitLog.error("finishTransaction: \(transaction.payment.productIdentifier) is still purchasing; it cannot be finished yet")
            return
        }
        let removed = state.update { state -> Bool in
            guard let index = state.transactions.firstIndex(where: { $0 === transaction }) else { return false }
            state.transactions.remove(at: index)
            return true
        }
        guard let purchase = transaction.transaction, let connection,
              [.purchased, .restored].contains(transaction.transactionState) else {
            if removed { notify { $0.paymentQueue(self, removedTransactions: [transaction]) } }
            return
        }
        Task {
            await OpenStoreKit.withConnection(connection) { await purchase.finish() }
            if removed { self.notify { $0.paymentQueue(self, removedTransactions: [transaction]) } }
        }
    }

    // MARK: Restoring

    /// Restores the customer's non-consumables and auto-renewable subscriptions (every
    /// transaction of them, renewals included, as StoreKit 1 does): `.restored` transactions,
    /// then `paymentQueueRestoreCompletedTransactionsFinished(_:)`, or
    /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)` with an `SKError`.
    open func restoreCompletedTransactions() {
        restoreCompletedTransactions(withApplicationUsername: nil)
    }

    /// The same; `username` is what the app passed as `applicationUsername` (it does not filter).
    open func restoreCompletedTransactions(withApplicationUsername username: String?) {
        guard let connection else {
            let error = configurationError ?? SKError(.clientInvalid, message: "OpenStoreKit is not configured")
            notify { $0.paymentQueue(self, restoreCompletedTransactionsFailedWithError: error) }
            return
        }
        Task { await OpenStoreKit.withConnection(connection) { await self.restore(connection) } }
    }

    private func restore(_ connection: StoreConnection) async {
        do {
            try await AppStore.sync()
            var history: [Transaction] = []
            for await result in Transaction.all { history.append(result.unsafePayloadValue) }
            let byID = Dictionary(history.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let restored = history
                .filter { $0.revocationDate == nil && ($0.productType == .nonConsumable || $0.productType == .autoRenewable) }
                .sorted { $0.purchaseDate < $1.purchaseDate }
                .map { purchase in
                    SKPaymentTransaction(
                        payment: Self.payment(for: purchase), state: .restored, transaction: purchase,
                        original: SKPaymentTransaction(payment: Self.payment(for: purchase), state: .purchased,
                                                       transaction: byID[purchase.originalID] ?? purchase))
                }
            try await AppReceiptFile.refresh(connection)
            state.update { $0.transactions.append(contentsOf: restored) }
            if !restored.isEmpty { notifyUpdated(restored) }
            notify { $0.paymentQueueRestoreCompletedTransactionsFinished(self) }
        } catch {
            let failure = SKError(storeKit: error)
            notify { $0.paymentQueue(self, restoreCompletedTransactionsFailedWithError: failure) }
        }
    }

    // MARK: Offer codes, promoted purchases, price consent, downloads

    /// There is no sheet to present: the code a customer would type goes to `redeemOfferCode(_:)`.
    /// Logged, so a call left in app code is visible.
    open func presentCodeRedemptionSheet() {
        StoreKitLog.error("presentCodeRedemptionSheet: no sheet on this platform; call redeemOfferCode(_:) with the code")
    }

    /// What the redemption sheet does once the customer typed `code`: redeems it; the
    /// subscription it starts reaches the observers as a `.purchased` transaction. Throws an
    /// `SKError` when the store refuses the code.
    public func redeemOfferCode(_ code: String) async throws {
        guard let connection else { throw configurationError ?? SKError(.clientInvalid, message: "OpenStoreKit is not configured") }
        do {
            let result = try await OpenStoreKit.withConnection(connection) { try await AppStore.redeemOfferCode(code) }
            if case .success(let verification) = result {
                await settle(verification.unsafePayloadValue, into: nil, connection: connection)
            }
        } catch {
            throw SKError(storeKit: error)
        }
    }

    /// A purchase that started on the App Store (a promoted In-App Purchase) for a product of
    /// this app: asks the observers `paymentQueue(_:shouldAddStorePayment:for:)` and adds the
    /// payment if one says yes. There is no App Store product page here, so a test or tool calls
    /// this where StoreKit would on its own. Returns whether the payment was added.
    @discardableResult
    public func receiveStorePayment(productIdentifier: String) async throws -> Bool {
        guard let connection else { throw configurationError ?? SKError(.clientInvalid, message: "OpenStoreKit is not configured") }
        let loaded: [Product]
        do {
            loaded = try await OpenStoreKit.withConnection(connection) { try await Product.products(for: [productIdentifier]) }
        } catch {
            throw SKError(storeKit: error)
        }
        guard let found = loaded.first else {
            throw SKError(.storeProductNotAvailable, message: "the store sells no product \"\(productIdentifier)\" for \(connection.configuration.bundleID)")
        }
        let product = SKProduct(found)
        let payment = SKPayment(product: product)
        let observers = Unchecked(state.get().observers)
        let question = Unchecked((payment, product))
        let accepted: Bool = await MainActor.run {
            var add = false
            for observer in observers.value
            where observer.paymentQueue(self, shouldAddStorePayment: question.value.0, for: question.value.1) { add = true }
            return add
        }
        if accepted { add(payment) }
        return accepted
    }

    /// Price-increase consent is shown through StoreKit 2's `Message` here; nothing to show.
    open func showPriceConsentIfNeeded() {}

    /// Hosted content was retired by Apple: there are never downloads to start, pause or cancel.
    open func start(_ downloads: [SKDownload]) {}
    /// Does nothing: there are never downloads to pause.
    open func pause(_ downloads: [SKDownload]) {}
    /// Does nothing: there are never downloads to resume.
    open func resume(_ downloads: [SKDownload]) {}
    /// Does nothing: there are never downloads to cancel.
    open func cancel(_ downloads: [SKDownload]) {}

    // MARK: Delivery

    private func notifyUpdated(_ transactions: [SKPaymentTransaction]) {
        notify { $0.paymentQueue(self, updatedTransactions: transactions) }
    }

    /// Calls every observer on the main actor (the main queue), in the order the calls were
    /// made, with this queue's connection bound: `SKPaymentQueue.default()` in an observer is
    /// this queue, as on a device.
    private func notify(_ body: @escaping (any SKPaymentTransactionObserver) -> Void) {
        state.update { state in
            let observers = state.observers
            if state.delivery == nil { state.delivery = startDelivery() }
            state.delivery?.yield(Unchecked { for observer in observers { body(observer) } })
        }
    }

    private func startDelivery() -> AsyncStream<Unchecked<() -> Void>>.Continuation {
        let (calls, continuation) = AsyncStream.makeStream(of: Unchecked<() -> Void>.self)
        let connection = connection
        Task {
            func run() async {
                for await call in calls { await MainActor.run { call.value() } }
            }
            if let connection { await OpenStoreKit.withConnection(connection) { await run() } } else { await run() }
        }
        return continuation
    }
}
