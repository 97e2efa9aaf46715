import Foundation
import StoreModel
import StoreShared
import StoreSigning
import StoreStorage

/// The App Store: sells the apps' catalogs to customers, runs subscriptions through their lives,
/// keeps every purchase, and signs what it hands out. State lives in worlds (`World`), each with its
/// own clock; the rules live in `Rules/`; front ends (HTTP, CLI) hold no rules of their own.
public final class AppStore: Sendable {
    /// The world every store has and that cannot be deleted, only reset. Code that means it names it
    /// (`store.world(AppStore.defaultWorld)`); the HTTP layer uses it for the unscoped `/storekit/v1` routes.
    public static let defaultWorld = "default"

    /// The engine's storage; never handed above the engine (callers use `close()`).
    let database: StoreDatabase
    /// The store's certificate authority: the root and leaf that sign transactions, notifications and receipts.
    public let authority: CertificateAuthority
    /// Where the store reads real time; each world's clock is anchored to it.
    public let clock: any StoreClock
    let signer: JWSSigner
    let worlds: WorldDirectory
    /// Signed transaction revisions recently handed out (history pages re-read the same ones).
    let signatures = SignatureCache()
    /// Server API keys revoked while this store runs (the gateway's key cache must see it).
    let revokedKeys = APIKeyRevocations()
    /// Retention Messaging performance tests started and not yet finished (their runner's queue).
    let performanceTests = RetentionPerformanceTestQueue()
    private let appsByBundle: [String: StoreApp]
    /// Apps in the order they were configured.
    public let apps: [StoreApp]

    init(database: StoreDatabase, authority: CertificateAuthority, apps: [StoreApp], clock: any StoreClock, worlds: WorldDirectory) {
        self.database = database
        self.authority = authority
        self.signer = JWSSigner(authority: authority)
        self.apps = apps
        self.appsByBundle = Dictionary(apps.map { ($0.bundleId, $0) }, uniquingKeysWith: { _, last in last })
        self.clock = clock
        self.worlds = worlds
    }

    /// Opens the store on its database: loads (or on first start creates) the certificate
    /// authority, records the apps, restores the worlds and their clocks, and continues
    /// identifiers where the last run stopped.
    /// - Parameter defaultRate: the clock rate of worlds created without one; defaults to the
    ///   first app catalog's `_timeRate`.
    /// - Parameter instance: on PostgreSQL, this process as one of many instances sharing the
    ///   database: worlds are then served under leases (WorldOwnership).
    /// - Parameter uuids: where the engine's UUIDs come from (`.seeded` makes them repeatable).
    public static func open(
        database: StoreDatabase, apps: [StoreApp], clock: any StoreClock = SystemClock(),
        defaultRate: TimeRate? = nil, runScheduler: Bool = true, instance: InstanceSettings? = nil,
        uuids: UUIDSource = .system
    ) async throws -> AppStore {
        let authority = try await SigningKeys.loadOrCreate(in: database)
        for app in apps {
            try await database.upsertApp(AppRecord(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment.rawValue,
                name: app.name, catalogJSON: app.catalogJSON))
        }
        let marks = try await database.highWaterMarks()
        let rate = defaultRate ?? apps.first.flatMap { AppleTimeRate(rawValue: $0.catalog.settings.timeRate) }.map(TimeRate.apple) ?? .realTime
        // Servers on PostgreSQL hold leases on the worlds they serve, so any number of them can
        // share the database (docs/deploy.md). A store opened without `instance` (a CLI command
        // reading the root certificate, a benchmark) is the database's only writer.
        let ownership = instance.flatMap { database.supportsManyInstances ? WorldOwnership(settings: $0, database: database) : nil }
        let env = WorldEnvironment(
            apps: Dictionary(apps.map { ($0.bundleId, $0) }, uniquingKeysWith: { _, last in last }),
            database: database, identifiers: Identifiers(lastId: marks.transactionId, lastSeq: marks.seq, uuids: uuids),
            signer: JWSSigner(authority: authority), realNowMs: { clock.now().milliseconds },
            ownership: ownership, feed: TransactionFeed(openedAt: marks.seq))
        let directory = WorldDirectory(env: env, defaultRate: rate, runScheduler: runScheduler)
        try await directory.load()
        return AppStore(database: database, authority: authority, apps: apps, clock: clock, worlds: directory)
    }

    /// Stops the worlds' schedulers; call before closing the database.
    public func shutdown() async {
        await worlds.stopAll()
    }

    /// Stops the schedulers and closes the database: the store is done.
    public func close() async {
        await shutdown()
        await database.close()
    }

    /// The app with this bundle ID, or `StoreError.appNotFound`.
    public func app(_ bundleId: String) throws(StoreError) -> StoreApp {
        guard let app = appsByBundle[bundleId] else { throw .appNotFound("no app with bundle ID \(bundleId)") }
        return app
    }

    /// The world's actor, loaded here (or taken over from a lost lease); throws `WorldElsewhere`
    /// when another instance serves it.
    func loadedWorld(_ id: String) async throws -> World {
        if let world = worlds.existingWorld(id), !(worlds.env.ownership?.isLost(id) ?? false) { return world }
        return try await worlds.world(id)
    }

    /// Where the world is served: here (taken over now if nobody held it) or at another instance.
    public func placement(of world: String) async throws -> WorldPlacement {
        do {
            _ = try await self.loadedWorld(world)
            return .here
        } catch let elsewhere as WorldElsewhere {
            return .elsewhere(address: elsewhere.address)
        }
    }

    /// Whether the instance at `address` still holds a live lease on the world: a request
    /// forwarded there is waited for only as long as it does (read only; takes nothing over).
    public func leaseIsLive(world: String, at address: String) async -> Bool {
        guard let lease = try? await database.lease(world: world) else { return true }  // database away: keep waiting
        return !lease.expired && lease.address == address
    }

    /// This instance in a group sharing one PostgreSQL (nil on SQLite).
    public var instance: InstanceSettings? {
        guard let ownership = worlds.env.ownership else { return nil }
        var settings = ownership.settings
        settings.advertiseURL = ownership.address
        return settings
    }

    /// Where other instances reach this one, once its server has bound its port.
    public func advertise(_ url: String) {
        guard let ownership = worlds.env.ownership else { return }
        ownership.address = url
        // Leases claimed while the port was unknown name the new address now, not at the next beat.
        let database = database
        Task { _ = try? await database.renewLeases(owner: ownership.id, address: url, ttlMs: ownership.settings.leaseMs) }
    }

    func nowMs(_ world: String) async throws -> Int64 {
        try await self.loadedWorld(world).nowMs()
    }

    // MARK: Products

    /// The products of an app as one storefront sees them; unknown IDs are left out, as StoreKit does.
    public func products(bundleId: String, storefront code: String?, locale: String?, ids: [String]?) throws(StoreError) -> (Storefront, [ProductListing]) {
        let app = try app(bundleId)
        if let locale, !LocaleIdentifier.isValid(locale) {
            throw .malformedRequest("locale must be a locale identifier such as fr_FR, not \"\(locale)\"")
        }
        let storefront = try Self.storefront(code ?? app.catalog.settings.storefront)
        let locale = locale ?? (code == nil ? app.catalog.settings.locale : storefront.locale)
        let wanted = ids.map(Set.init)
        let products = app.catalog.products
            .filter { wanted?.contains($0.id) ?? true }
            .map { ProductListing($0, catalog: app.catalog, storefront: storefront, locale: locale) }
        return (storefront, products)
    }

    static func storefront(_ code: String) throws(StoreError) -> Storefront {
        guard let storefront = Storefront.lookup(code) else {
            throw .invalidStorefront("\"\(code)\" is not an App Store storefront (use ISO 3166-1 alpha-3, e.g. USA)")
        }
        return storefront
    }

    /// A customer's name: 1–200 characters (Unicode scalars) without control characters.
    public static func checkCustomerName(_ name: String) throws(StoreError) {
        guard !name.isEmpty, name.unicodeScalars.count <= 200, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .malformedRequest("customer must be 1–200 characters without control characters")
        }
    }

    // MARK: Customers

    func customer(_ name: String, world: String) async throws -> StoreCustomer? {
        try await self.loadedWorld(world).customer(name).map(StoreCustomer.init)
    }

    func saveCustomer(_ name: String, storefront: String?, locale: String?, world: String) async throws -> StoreCustomer {
        try Self.checkCustomerName(name)
        if let locale, !LocaleIdentifier.isValid(locale) {
            throw StoreError.malformedRequest("locale \(locale.debugDescription) is not a locale identifier such as en_US or fr_FR")
        }
        return StoreCustomer(try await self.loadedWorld(world).saveCustomer(name, storefront: storefront, locale: locale))
    }

    // MARK: Signing

    /// Re-signs a stored transaction as of now, as Apple does each time it hands one out; a
    /// revision signed within the last second is copied from `signatures` instead.
    func sign(_ record: TransactionRecord, nowMs: Int64) throws -> Signed<TransactionPayload> {
        if let cached = signatures.signed(id: record.id, seq: record.seq, nowMs: nowMs) { return cached }
        var payload = try TransactionPayload(json: Array(record.payload.utf8))
        payload.signedDate = nowMs
        let signed = Signed(jws: signer.sign(payloadJSON: payload.jsonBytes), payload: payload)
        signatures.store(id: record.id, seq: record.seq, signed)
        return signed
    }

    func signRenewalInfo(_ chain: SubscriptionChain, nowMs: Int64) throws -> Signed<RenewalInfoPayload> {
        RenewalInfoView.signed(chain, app: try app(chain.bundleId), signer: signer, nowMs: nowMs)
    }
}

extension RenewalInfoView {
    /// A chain's renewal info as of `nowMs`, signed: the one place it is built and signed, for an
    /// answer signed in the world's turn or later.
    static func signed(_ chain: SubscriptionChain, app: StoreApp, signer: JWSSigner, nowMs: Int64) -> Signed<RenewalInfoPayload> {
        let payload = payload(
            of: chain, environment: app.environment, nowMs: nowMs,
            winBackOfferIds: OfferEligibility.winBackOfferIds(for: chain, catalog: app.catalog))
        let json = payload.jsonBytes
        return Signed(jws: signer.sign(payloadJSON: json), payload: payload, payloadJSON: json)
    }
}

/// One shared encoder: payload JSON is produced on every purchase and read.
enum PayloadCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
    static let decoder = JSONDecoder()
}

extension World {
    func saveCustomer(_ name: String, storefront: String?, locale: String?) async throws -> CustomerRecord {
        let existing = try await customer(name)
        let front = try AppStore.storefront(storefront ?? existing?.storefront ?? "USA")
        let record = CustomerRecord(
            world: id, name: name, storefront: front.countryCode,
            locale: locale ?? (storefront == nil ? existing?.locale : nil) ?? front.locale,
            createdMs: existing?.createdMs ?? nowMs())
        customers[name] = record
        try await commit(WriteBatch(customers: [record]))
        if let existing, existing.storefront != record.storefront {
            env.feed.announce(world: id, customer: name, storefront: record.storefront)
        }
        return record
    }
}
