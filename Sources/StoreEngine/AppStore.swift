import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// The App Store: sells the apps' catalogs to customers, keeps every purchase, and signs what it
/// hands out. It applies the pure rules in `Rules/`, keeps state in `StoreDatabase`, and signs
/// with the store's own certificate chain. Front ends (HTTP, CLI) hold no rules of their own.
public final class AppStore: Sendable {
    public static let defaultWorld = "default"

    public let database: StoreDatabase
    public let authority: CertificateAuthority
    public let clock: any StoreClock
    let signer: JWSSigner
    let ledger: CustomerLedger
    private let appsByBundle: [String: StoreApp]
    /// Apps in the order they were configured.
    public let apps: [StoreApp]

    init(database: StoreDatabase, authority: CertificateAuthority, apps: [StoreApp], clock: any StoreClock, ledger: CustomerLedger) {
        self.database = database
        self.authority = authority
        self.signer = JWSSigner(authority: authority)
        self.apps = apps
        self.appsByBundle = Dictionary(apps.map { ($0.bundleId, $0) }, uniquingKeysWith: { _, last in last })
        self.clock = clock
        self.ledger = ledger
    }

    /// Opens the store on its database: loads (or on first start creates) the certificate
    /// authority, records the apps, and continues identifiers where the last run stopped.
    public static func open(database: StoreDatabase, apps: [StoreApp], clock: any StoreClock = SystemClock()) async throws -> AppStore {
        let authority = try await SigningKeys.loadOrCreate(in: database)
        for app in apps {
            try await database.upsertApp(AppRecord(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment.rawValue,
                name: app.name, catalogJSON: app.catalogJSON))
        }
        let marks = try await database.highWaterMarks()
        let ledger = CustomerLedger(database: database, lastTransactionId: marks.transactionId, lastSeq: marks.seq)
        return AppStore(database: database, authority: authority, apps: apps, clock: clock, ledger: ledger)
    }

    public func app(_ bundleId: String) throws(StoreError) -> StoreApp {
        guard let app = appsByBundle[bundleId] else { throw .appNotFound("no app with bundle ID \(bundleId)") }
        return app
    }

    func nowMs(_ world: String) -> Int64 { clock.now(world: world).milliseconds }

    // MARK: Products

    /// The products of an app as one storefront sees them; unknown IDs are left out, as StoreKit does.
    public func products(bundleId: String, storefront code: String?, locale: String?, ids: [String]?) throws(StoreError) -> (Storefront, [ProductListing]) {
        let app = try app(bundleId)
        let storefront = try storefront(code ?? app.catalog.settings.storefront)
        let locale = locale ?? (code == nil ? app.catalog.settings.locale : storefront.locale)
        let wanted = ids.map(Set.init)
        let products = app.catalog.products
            .filter { wanted?.contains($0.id) ?? true }
            .map { ProductListing($0, catalog: app.catalog, storefront: storefront, locale: locale) }
        return (storefront, products)
    }

    func storefront(_ code: String) throws(StoreError) -> Storefront {
        guard let storefront = Storefront.lookup(code) else {
            throw .invalidStorefront("\"\(code)\" is not an App Store storefront (use ISO 3166-1 alpha-3, e.g. USA)")
        }
        return storefront
    }

    // MARK: Customers

    public func customer(_ name: String, world: String = AppStore.defaultWorld) async throws -> CustomerRecord? {
        try await ledger.customer(world: world, name: name, create: { nil })?.record
    }

    /// Creates the account, or changes its storefront and locale.
    public func saveCustomer(_ name: String, storefront: String?, locale: String?, world: String = AppStore.defaultWorld) async throws -> CustomerRecord {
        try Self.checkCustomerName(name)
        let existing = try await customer(name, world: world)
        let front = try self.storefront(storefront ?? existing?.storefront ?? "USA")
        let record = CustomerRecord(
            world: world, name: name, storefront: front.countryCode,
            locale: locale ?? (storefront == nil ? existing?.locale : nil) ?? front.locale,
            createdMs: existing?.createdMs ?? nowMs(world))
        try await database.write(WriteBatch(customers: [record]))
        await ledger.setCustomer(record)
        return record
    }

    static func checkCustomerName(_ name: String) throws(StoreError) {
        guard !name.isEmpty, name.count <= 200, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .malformedRequest("customer must be 1–200 characters without control characters")
        }
    }

    /// The customer, created on first use with the app catalog's default storefront and locale.
    func customerCreatingIfNeeded(_ name: String, app: StoreApp, world: String) async throws -> (record: CustomerRecord, isNew: Bool) {
        try Self.checkCustomerName(name)
        let settings = app.catalog.settings
        let created = CustomerRecord(
            world: world, name: name, storefront: Storefront.lookup(settings.storefront)?.countryCode ?? "USA",
            locale: settings.locale, createdMs: nowMs(world))
        guard let found = try await ledger.customer(world: world, name: name, create: { created }) else {
            throw StoreError.customerNotFound(name)
        }
        return found
    }

    func appTransactionCreatingIfNeeded(_ key: CustomerLedger.Key, world: String) async throws -> (record: AppTransactionRecord, isNew: Bool) {
        let now = nowMs(world)
        return try await ledger.appTransaction(key) { id in
            AppTransactionRecord(
                world: key.world, bundleId: key.bundleId, customer: key.customer, appTransactionId: id,
                applicationVersion: "1.0", originalApplicationVersion: "1.0", originalPurchaseMs: now,
                originalPlatform: PurchasePlatform.iOS.rawValue, createdMs: now)
        }
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
