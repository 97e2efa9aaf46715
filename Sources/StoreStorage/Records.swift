// Rows as the store keeps them. Storage knows nothing of Apple's wire formats: the engine hands it
// indexed columns plus the transaction's JSON, and gets the same back.

/// An app the store sells for: bundle ID, Apple ID, environment and its catalog text.
public struct AppRecord: Sendable, Equatable {
    public var bundleId: String
    public var appAppleId: Int64
    public var environment: String
    public var name: String
    public var catalogJSON: String
    public init(bundleId: String, appAppleId: Int64, environment: String, name: String, catalogJSON: String) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.name = name
        self.catalogJSON = catalogJSON
    }
}

/// An App Store account, like a sandbox tester: it owns purchases across apps.
public struct CustomerRecord: Sendable, Equatable {
    public var world: String
    public var name: String
    public var storefront: String
    public var locale: String
    public var createdMs: Int64
    public init(world: String, name: String, storefront: String, locale: String, createdMs: Int64) {
        self.world = world
        self.name = name
        self.storefront = storefront
        self.locale = locale
        self.createdMs = createdMs
    }
}

/// The customer's copy of an app: what `AppTransaction` reports.
public struct AppTransactionRecord: Sendable, Equatable {
    public var world: String
    public var bundleId: String
    public var customer: String
    public var appTransactionId: String
    public var applicationVersion: String
    public var originalApplicationVersion: String
    public var originalPurchaseMs: Int64
    public var originalPlatform: String
    public var createdMs: Int64
    public init(
        world: String, bundleId: String, customer: String, appTransactionId: String,
        applicationVersion: String, originalApplicationVersion: String, originalPurchaseMs: Int64,
        originalPlatform: String, createdMs: Int64
    ) {
        self.world = world
        self.bundleId = bundleId
        self.customer = customer
        self.appTransactionId = appTransactionId
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseMs = originalPurchaseMs
        self.originalPlatform = originalPlatform
        self.createdMs = createdMs
    }
}

/// One transaction. `seq` is its place in the store-wide change sequence: it is renewed whenever
/// the transaction changes, which is what "sorted by modification" and revision tokens rest on.
public struct TransactionRecord: Sendable, Equatable {
    public var id: Int64
    public var world: String
    public var seq: Int64
    public var originalId: Int64
    public var bundleId: String
    public var customer: String
    public var productId: String
    public var productKind: String
    public var groupId: String?
    public var purchaseMs: Int64
    public var expiresMs: Int64?
    public var revokedMs: Int64?
    public var finished: Bool
    public var orderId: String
    public var ownership: String
    /// The transaction's decoded JWS payload as JSON, without `signedDate` (set when signing).
    public var payload: String
    public init(
        id: Int64, world: String, seq: Int64, originalId: Int64, bundleId: String, customer: String,
        productId: String, productKind: String, groupId: String?, purchaseMs: Int64, expiresMs: Int64?,
        revokedMs: Int64?, finished: Bool, orderId: String, ownership: String, payload: String
    ) {
        self.id = id
        self.world = world
        self.seq = seq
        self.originalId = originalId
        self.bundleId = bundleId
        self.customer = customer
        self.productId = productId
        self.productKind = productKind
        self.groupId = groupId
        self.purchaseMs = purchaseMs
        self.expiresMs = expiresMs
        self.revokedMs = revokedMs
        self.finished = finished
        self.orderId = orderId
        self.ownership = ownership
        self.payload = payload
    }
}

/// A subscription chain (all periods of one original transaction) and its state as JSON.
/// `version` is the change number of the write: an older version never overwrites a newer one.
public struct SubscriptionRecord: Sendable, Equatable {
    public var world: String
    public var originalId: Int64
    public var bundleId: String
    public var customer: String
    public var groupId: String
    public var productId: String
    public var status: Int
    public var nextEventMs: Int64?
    public var version: Int64
    public var state: String
    public var updatedMs: Int64
    public init(
        world: String, originalId: Int64, bundleId: String, customer: String, groupId: String,
        productId: String, status: Int, nextEventMs: Int64?, version: Int64, state: String, updatedMs: Int64
    ) {
        self.world = world
        self.originalId = originalId
        self.bundleId = bundleId
        self.customer = customer
        self.groupId = groupId
        self.productId = productId
        self.status = status
        self.nextEventMs = nextEventMs
        self.version = version
        self.state = state
        self.updatedMs = updatedMs
    }
}

/// An App Store event, kept in order: the seed of a server notification.
public struct EventRecord: Sendable, Equatable {
    public var seq: Int64
    public var world: String
    public var bundleId: String
    public var customer: String
    public var type: String
    public var subtype: String?
    public var transactionId: Int64?
    public var originalId: Int64?
    public var atMs: Int64
    public var data: String?
    public init(seq: Int64, world: String, bundleId: String, customer: String, type: String, subtype: String?, transactionId: Int64?, originalId: Int64?, atMs: Int64, data: String? = nil) {
        self.seq = seq
        self.world = world
        self.bundleId = bundleId
        self.customer = customer
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.originalId = originalId
        self.atMs = atMs
        self.data = data
    }
}

/// Small per-world documents (settings, messages, review prompts, offer codes…), keyed by kind.
public struct WorldRecord: Sendable, Equatable {
    public var world: String
    public var kind: String
    public var key: String
    public var value: String
    public init(world: String, kind: String, key: String, value: String) {
        self.world = world
        self.kind = kind
        self.key = key
        self.value = value
    }
}

/// Everything one acknowledged operation changes. It is committed whole or not at all.
public struct WriteBatch: Sendable {
    public var customers: [CustomerRecord] = []
    public var appTransactions: [AppTransactionRecord] = []
    public var transactions: [TransactionRecord] = []
    public var subscriptions: [SubscriptionRecord] = []
    public var events: [EventRecord] = []
    public var worldRecords: [WorldRecord] = []
    public var meta: [String: String] = [:]
    /// Server notifications: new outbox rows and delivery outcomes (NotificationRecords.swift).
    public var notifications: [NotificationWrite] = []
    /// The decision this batch rests on (`WriteFence`); nil for writes no memory depends on.
    /// Not merged: the group committer checks each caller's batch before merging.
    public var fence: WriteFence?
    /// With many instances: the lease epoch each world's writer holds (`StoreDatabase+Leases`).
    /// The transaction writes nothing unless every one is still current. Merged.
    public var leases: [String: Int64] = [:]
    public init(
        customers: [CustomerRecord] = [], appTransactions: [AppTransactionRecord] = [],
        transactions: [TransactionRecord] = [], subscriptions: [SubscriptionRecord] = [],
        events: [EventRecord] = [], worldRecords: [WorldRecord] = [], meta: [String: String] = [:]
    ) {
        self.customers = customers
        self.appTransactions = appTransactions
        self.transactions = transactions
        self.subscriptions = subscriptions
        self.events = events
        self.worldRecords = worldRecords
        self.meta = meta
    }
    public var isEmpty: Bool {
        customers.isEmpty && appTransactions.isEmpty && transactions.isEmpty && subscriptions.isEmpty
            && events.isEmpty && worldRecords.isEmpty && meta.isEmpty && notifications.isEmpty
    }
    public mutating func merge(_ other: WriteBatch) {
        customers += other.customers
        appTransactions += other.appTransactions
        transactions += other.transactions
        subscriptions += other.subscriptions
        events += other.events
        worldRecords += other.worldRecords
        meta.merge(other.meta) { _, new in new }
        notifications += other.notifications
        // Two writers' batches of one world (a given-up world and its replacement): the older
        // epoch, so the group fails and each is written alone under its own.
        leases.merge(other.leases) { old, new in min(old, new) }
    }
}
