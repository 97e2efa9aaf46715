// Rows as the store keeps them. Storage knows nothing of Apple's wire formats: the engine hands it
// indexed columns plus the transaction's JSON, and gets the same back.

/// An app the store sells for: bundle ID, Apple ID, environment and its catalog text.
public struct AppRecord: Sendable, Equatable {
    /// Primary key: registering the same bundle ID again replaces the rest of the row (`upsertApp`).
    public var bundleId: String
    /// Apple's numeric app ID, sent as `appAppleId` in notifications and Server API answers.
    public var appAppleId: Int64
    /// `StoreEnvironment`'s raw value: `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var environment: String
    /// The name the app was registered with, for listings; nothing is keyed by it.
    public var name: String
    /// The catalog as the JSON text it was loaded from, stored unparsed: storage knows nothing of its format.
    public var catalogJSON: String
    /// Made by the engine at start-up for `upsertApp`, once per configured app.
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
    /// The world the account lives in: the same name in two worlds is two customers (key `(world, name)`).
    public var world: String
    /// The account's name, unique in its world; the other tables name the customer by it.
    public var name: String
    /// Three-letter country code of the account's storefront (`USA` unless the catalog or a change says otherwise).
    public var storefront: String
    /// The account's locale (`en_US` style), from the catalog's settings unless set for this customer.
    public var locale: String
    /// World time the account was first used; later upserts keep the first value.
    public var createdMs: Int64
    /// Rows are upserted: writing one again changes storefront and locale, never `createdMs`.
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
    /// The world of the customer who owns this copy.
    public var world: String
    /// The app this copy is of.
    public var bundleId: String
    /// The owner; there is one row per `(world, bundleId, customer)`.
    public var customer: String
    /// AppTransaction's `appTransactionId`. Kept by later upserts, so it never changes once issued;
    /// indexed per world for lookups by this ID.
    public var appTransactionId: String
    /// AppTransaction's `applicationVersion`: the version the customer has now.
    public var applicationVersion: String
    /// AppTransaction's `originalApplicationVersion`: the app's current version when this copy was made.
    public var originalApplicationVersion: String
    /// AppTransaction's `originalPurchaseDate`, in world-time milliseconds.
    public var originalPurchaseMs: Int64
    /// AppTransaction's `originalPlatform` (a `PurchasePlatform` raw value; new copies say `iOS`).
    public var originalPlatform: String
    /// World time the row was first written; later upserts keep it.
    public var createdMs: Int64
    /// One row per customer and app; upserts keep the first row's `appTransactionId` and `createdMs`.
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
    /// The `transactionId` as a number: the primary key, unique across worlds.
    public var id: Int64
    /// The world it belongs to; deleting the world's data deletes it.
    public var world: String
    /// Change number, renewed on every modification. An upsert with a lower `seq` never replaces the
    /// stored row, so batches may commit out of order.
    public var seq: Int64
    /// `originalTransactionId` as a number: every period of a subscription chain shares it.
    public var originalId: Int64
    /// The app the purchase was made in.
    public var bundleId: String
    /// The owner; with `world` and `bundleId`, the prefix of the history index.
    public var customer: String
    /// `productId`, lifted out of the payload so Server API filters need not parse it.
    public var productId: String
    /// A `ProductKind` raw value (`Consumable` … `RecurringSubscription`): the catalog's spelling, not the JWS `type`.
    public var productKind: String
    /// `subscriptionGroupIdentifier`; nil for products outside a subscription group.
    public var groupId: String?
    /// `purchaseDate` in milliseconds: what date-range filters and the dashboard order by.
    public var purchaseMs: Int64
    /// `expiresDate`; nil for products that do not expire. Subscription runs are built from it.
    public var expiresMs: Int64?
    /// `revocationDate`; set once the transaction is refunded or revoked (the `revoked` filter and its index).
    public var revokedMs: Int64?
    /// Whether the app finished the transaction: finished consumables leave history v1 and the app receipt.
    public var finished: Bool
    /// The customer's order ID (`OrderID`), kept when the transaction changes; indexed per world for order lookups.
    public var orderId: String
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`; `/metrics` counts only purchased ones.
    public var ownership: String
    /// The transaction's decoded JWS payload as JSON, without `signedDate` (set when signing).
    public var payload: String
    /// Built by the engine from a `TransactionPayload`; storage stores it and hands it back unchanged.
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
    /// The chain's world; `(world, originalId)` is the key.
    public var world: String
    /// The chain's `originalTransactionId`.
    public var originalId: Int64
    /// Fixed for the chain's life: upserts leave it, `customer` and `groupId` alone to spare the customer index.
    public var bundleId: String
    /// The subscriber; never rewritten after the first insert.
    public var customer: String
    /// The subscription group the chain renews in; never rewritten after the first insert.
    public var groupId: String
    /// The chain's current product; unlike the group, rewritten on every write.
    public var productId: String
    /// Apple's subscription status number: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int
    /// World time the scheduler must next act on the chain; nil when nothing is due. Indexed for the agenda.
    public var nextEventMs: Int64?
    /// A change number from the same sequence as transactions' `seq`: the highest wins when writes commit out of order.
    public var version: Int64
    /// The whole `SubscriptionChain` as JSON; the other columns are indexed copies of parts of it.
    public var state: String
    /// World time of the write.
    public var updatedMs: Int64
    /// Built by the engine each time it stores a changed chain, with a fresh `version`.
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
    /// Change number: the primary key and the order events are read in.
    public var seq: Int64
    /// The world the event happened in.
    public var world: String
    /// The app the event concerns.
    public var bundleId: String
    /// The customer it concerns; "" for an app-wide event such as TEST.
    public var customer: String
    /// Apple's `notificationType` (`DID_RENEW`, `REFUND`, …): the notification the event becomes.
    public var type: String
    /// Apple's `subtype`, when the type has one.
    public var subtype: String?
    /// The transaction the notification will carry, if any.
    public var transactionId: Int64?
    /// The subscription chain it belongs to, if any.
    public var originalId: Int64?
    /// World time of the event.
    public var atMs: Int64
    /// Extra JSON some events need for their notification, such as a consumption request's `consumptionRequestReason`.
    public var data: String?
    /// `data` defaults to nil: most events need nothing beyond the columns.
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
    /// The world the document belongs to; it goes when the world's data is deleted.
    public var world: String
    /// The document family (messages, offer codes, nonces…): what `worldRecords(world:kind:)` lists.
    public var kind: String
    /// The document's name within its kind; `(world, kind, key)` is unique, so writing it again replaces it.
    public var key: String
    /// The document's text; storage never looks inside.
    public var value: String
    /// A document to write in a `WriteBatch`, or one read back.
    public init(world: String, kind: String, key: String, value: String) {
        self.world = world
        self.kind = kind
        self.key = key
        self.value = value
    }
}

/// Everything one acknowledged operation changes. It is committed whole or not at all.
public struct WriteBatch: Sendable {
    /// Customers to upsert (storefront and locale change; the creation time stays).
    public var customers: [CustomerRecord] = []
    /// App copies to upsert.
    public var appTransactions: [AppTransactionRecord] = []
    /// Transactions to upsert; of two rows with one ID, the higher `seq` wins.
    public var transactions: [TransactionRecord] = []
    /// Subscription chains to upsert; the higher `version` wins.
    public var subscriptions: [SubscriptionRecord] = []
    /// App Store events to append, keyed by `seq`.
    public var events: [EventRecord] = []
    /// Per-world documents to write; the same key again replaces the value.
    public var worldRecords: [WorldRecord] = []
    /// Store-wide settings (the `meta` table); when batches merge, the later value for a key wins.
    public var meta: [String: String] = [:]
    /// Server notifications: new outbox rows and delivery outcomes (NotificationRecords.swift).
    public var notifications: [NotificationWrite] = []
    /// The decision this batch rests on (`WriteFence`); nil for writes no memory depends on.
    /// Not merged: the group committer checks each caller's batch before merging.
    public var fence: WriteFence?
    /// With many instances: the lease epoch each world's writer holds (`StoreDatabase+Leases`).
    /// The transaction writes nothing unless every one is still current. Merged.
    public var leases: [String: Int64] = [:]
    /// Empty by default: a caller fills in only the tables it changes.
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
    /// True when there is nothing to write: `StoreDatabase.write` then returns without a transaction.
    public var isEmpty: Bool {
        customers.isEmpty && appTransactions.isEmpty && transactions.isEmpty && subscriptions.isEmpty
            && events.isEmpty && worldRecords.isEmpty && meta.isEmpty && notifications.isEmpty
    }
    /// Adds `other`'s rows, so the group committer writes many callers' batches in one transaction.
    /// Leases keep the lower epoch; `fence` is left as it was.
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
