import AsyncHTTPClient
import Foundation
import StoreShared
import Hummingbird
import SQLKit
import StoreTestSupport
import Synchronization
import Testing
import StoreSigning
@testable import SubscriptionBackend

/// Signs App Store data the way a store does (a real chain from StoreSigning's authority), so
/// the backend's checks run on real ES256 signatures; and gives each test its own backend in a
/// temporary folder that is removed afterwards.
struct SignedDataKit {
    let authority: CertificateAuthority
    let signer: JWSSigner
    let bundleId: String
    let environment: String

    init(bundleId: String = "com.example.backend", environment: String = "Sandbox") throws {
        authority = try CertificateAuthority.generate()
        signer = JWSSigner(authority: authority)
        self.bundleId = bundleId
        self.environment = environment
    }

    func sign(_ object: [String: Any]) throws -> String {
        signer.sign(payloadJSON: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_900_000_000_000

    func transaction(id: String, original: String, product: String = "plus.monthly", purchase: Int64, expires: Int64?,
                     type: String = "Auto-Renewable Subscription", signed: Int64? = nil, revoked: Int64? = nil,
                     token: String? = nil, reason: String = "PURCHASE", trial: Bool = false,
                     bundleId: String? = nil, environment: String? = nil) -> [String: Any] {
        var t: [String: Any] = [
            "transactionId": id, "originalTransactionId": original, "bundleId": bundleId ?? self.bundleId, "productId": product,
            "purchaseDate": purchase, "originalPurchaseDate": purchase, "type": type, "inAppOwnershipType": "PURCHASED",
            "signedDate": signed ?? purchase, "environment": environment ?? self.environment, "transactionReason": reason,
            "currency": "USD", "price": 4990, "storefront": "USA", "quantity": 1,
        ]
        if type == "Auto-Renewable Subscription" { t["subscriptionGroupIdentifier"] = "plus" }
        if let expires { t["expiresDate"] = expires }
        if let revoked { t["revocationDate"] = revoked; t["revocationReason"] = 0 }
        if let token { t["appAccountToken"] = token }
        if trial { t["offerType"] = 1; t["offerDiscountType"] = "FREE_TRIAL"; t["price"] = 0 }
        return t
    }

    func renewal(original: String, product: String = "plus.monthly", autoRenew: Bool = true, signed: Int64,
                 retry: Bool = false, grace: Int64? = nil, intent: Int? = nil) -> [String: Any] {
        var r: [String: Any] = [
            "originalTransactionId": original, "productId": product, "autoRenewProductId": product,
            "autoRenewStatus": autoRenew ? 1 : 0, "signedDate": signed, "environment": environment,
        ]
        if retry { r["isInBillingRetryPeriod"] = true }
        if let grace { r["gracePeriodExpiresDate"] = grace }
        if let intent { r["expirationIntent"] = intent }
        return r
    }

    func notification(_ type: String, subtype: String? = nil, uuid: String = UUID().uuidString.lowercased(), signed: Int64,
                      transaction: [String: Any]?, renewal: [String: Any]?, bundleId: String? = nil,
                      environment: String? = nil, appAppleId: Int64? = nil) throws -> String {
        var data: [String: Any] = ["bundleId": bundleId ?? self.bundleId, "environment": environment ?? self.environment]
        if let appAppleId { data["appAppleId"] = appAppleId }
        if let transaction { data["signedTransactionInfo"] = try sign(transaction) }
        if let renewal { data["signedRenewalInfo"] = try sign(renewal) }
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "signedDate": signed,
                                      "version": "2.0", "data": data]
        if let subtype { payload["subtype"] = subtype }
        return try sign(payload)
    }
}

/// The engines the backend's tests run on: SQLite always, PostgreSQL as well when
/// `OPENSTORE_TEST_POSTGRES_URL` names a server (scripts/postgres.sh), as StoreStorageTests does.
enum BackendTestEngine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["OPENSTORE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var all: [BackendTestEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A backend of its own for one test: a SQLite file in a folder removed when the test ends, or
/// a PostgreSQL schema of its own, dropped when the test ends (also on failure).
final class TestBackend {
    let folder: URL
    let backend: SubscriptionBackend
    let schema: String?
    let roots: [[UInt8]]
    private let siblings = Mutex<[BackendDatabase]>([])

    /// `configure` changes the configuration before the backend is made (an app's API key, the
    /// webhook lease).
    init(trusting roots: [[UInt8]], bundleId: String = "com.example.backend", environments: [String] = ["Sandbox"],
         webhooks: [WebhookTarget] = [], engine: BackendTestEngine = .sqlite, clock: WallClock = .system,
         configure: (inout BackendConfiguration) -> Void = { _ in }) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("backend-test-\(UUID().uuidString)")
        schema = engine == .postgres ? "bk_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() : nil
        self.roots = roots
        do {
            let database: BackendDatabase
            if let schema, let url = BackendTestEngine.postgresURL {
                database = try await BackendDatabase.open(url: url, schema: schema)
            } else {
                database = try await BackendDatabase.open(path: folder.appendingPathComponent("backend.sqlite").path)
            }
            let app = AppConfiguration(bundleId: bundleId, environments: environments, trustAppleRoot: false)
            var configuration = BackendConfiguration(apps: [app], webhooks: webhooks)
            configure(&configuration)
            backend = try SubscriptionBackend(configuration: configuration, database: database, extraRootsDER: roots, clock: clock)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Another instance on the same PostgreSQL schema, with the same configuration: what a second
    /// `openstore backend` process given the same database URL runs. Closed with this one.
    func sibling(clock: WallClock? = nil) async throws -> SubscriptionBackend {
        struct SiblingsNeedPostgreSQL: Error {}
        guard let schema, let url = BackendTestEngine.postgresURL else { throw SiblingsNeedPostgreSQL() }
        let database = try await BackendDatabase.open(url: url, schema: schema)
        siblings.withLock { $0.append(database) }
        return try SubscriptionBackend(configuration: backend.configuration, database: database, extraRootsDER: roots,
                                       clock: clock ?? backend.clock)
    }

    func close() async {
        for database in siblings.withLock({ $0 }) { await database.close() }
        if let schema {
            try? await backend.database.writeSQL.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
        }
        await backend.database.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body` with a fresh backend and always cleans up.
    static func with<T>(trusting roots: [[UInt8]], environments: [String] = ["Sandbox"], webhooks: [WebhookTarget] = [],
                        engine: BackendTestEngine = .sqlite, clock: WallClock = .system,
                        configure: (inout BackendConfiguration) -> Void = { _ in },
                        _ body: (TestBackend) async throws -> T) async throws -> T {
        try await withStarted({
            try await TestBackend(trusting: roots, environments: environments, webhooks: webhooks, engine: engine, clock: clock, configure: configure)
        }, stop: { await $0.close() }, body)
    }

    func eventTypes(_ user: String) async throws -> [String] {
        try await backend.events(appUserId: user, limit: 1000).map(\.type)
    }
}

/// A fresh backend trusting `kit`'s root, its router served on loopback, and an HTTP client (one
/// that follows no redirects, so a page's 303 is seen); `body` gets the server's base URL.
func withServedBackend(_ kit: SignedDataKit, _ body: (TestBackend, String, HTTPClient) async throws -> Void) async throws {
    try await TestBackend.with(trusting: [kit.authority.rootDER]) { test in
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let server = BackendHTTPServer(backend: test.backend, reconciler: Reconciler(backend: test.backend, http: http),
                                       dispatcher: WebhookDispatcher(backend: test.backend, http: http))
        let running = try await serveOnLoopback(server.makeRouter())
        do {
            try await body(test, "http://127.0.0.1:\(running.port)", http)
        } catch {
            await running.stop()
            try? await http.shutdown()
            throw error
        }
        await running.stop()
        try await http.shutdown()
    }
}

/// The backend's router (`BackendHTTPServer.makeRouter()`) served on a free loopback port.
func serveOnLoopback(_ router: Router<BasicRequestContext>) async throws -> LoopbackServer {
    try await LoopbackServer.start { listening in
        let application = Application(router: router,
                                      configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "backend-test"),
                                      onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) })
        return { try await application.runService() }
    }
}
