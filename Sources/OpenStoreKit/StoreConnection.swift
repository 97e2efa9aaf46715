import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StoreKitTypes
import StoreModel
import StoreSigning

/// One client's link to a store: its configuration, the pinned root and verifier, and the HTTP
/// calls of the device API. StoreKit's statics use `OpenStoreKit.connection()`; this type is
/// public so tests and tools can hold several side by side.
public final class StoreConnection: Sendable {
    /// The store, app and customer this connection talks to, fixed at creation.
    public let configuration: OpenStoreKit.Configuration
    let logger: Logger
    let http: HTTPClient
    private let session = OnceValue<Session>()
    /// That the customer exists (created on first use when allowed), once.
    private let accountReady = OnceValue<Bool>()
    /// Listed products, per storefront (`products(for:)`).
    let productCache = LockedValue<[ProductCacheKey: Product]>([:])
    /// What `purchase` bought here, which `Transaction.updates` leaves out as StoreKit does.
    let ownPurchases = OwnPurchases()
    /// `AppTransaction.shared`, once fetched.
    let appTransactionCache = LockedValue<VerificationResult<AppTransaction>?>(nil)

    /// A connection of its own, not the process-wide one: use it with `OpenStoreKit.withConnection`.
    public init(_ configuration: OpenStoreKit.Configuration) {
        self.configuration = configuration
        var logger = Logger(label: "OpenStoreKit")
        logger[metadataKey: "store"] = "\(configuration.store.absoluteString)"
        self.logger = logger
        self.http = Self.sharedHTTP
    }

    /// One HTTP client for every connection of the process, never shut down (like
    /// `HTTPClient.shared`), with a short connect timeout so a store that is down is reported in
    /// seconds, and room for many open `Transaction.updates` feeds to one store (each holds a
    /// connection; AsyncHTTPClient's default of 8 per host would make the ninth request wait).
    static let sharedHTTP: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(3))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    // MARK: Addresses

    var base: String {
        let text = configuration.store.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// `/storekit/v1`, or `/storekit/v1/worlds/{world}` outside the default world.
    var api: String {
        configuration.world == "default" ? base + "/storekit/v1" : base + "/storekit/v1/worlds/\(Self.escape(configuration.world))"
    }

    var app: String { api + "/apps/\(Self.escape(configuration.bundleID))" }
    var customer: String { app + "/customers/\(Self.escape(configuration.customer))" }
    var account: String { api + "/customers/\(Self.escape(configuration.customer))" }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }

    // MARK: Session (root, environment, account)

    /// What first contact establishes, once: the pinned root and its verifier, the app's
    /// environment, and that the customer exists.
    struct Session: Sendable {
        var verifier: LocalVerifier
        var rootDER: [UInt8]
    }

    /// Connects on first use: fetches (or checks) the root and pins it, checks the app and the
    /// customer. A failure is not remembered, so the next call tries again.
    func start() async throws -> Session {
        let ready = try await startWithoutAccount()
        _ = try await accountReady.value { try await self.ensureCustomer(); return true }
        return ready
    }

    /// Connects without touching the customer: what listing products needs, as on a phone where
    /// nobody is signed in.
    func startWithoutAccount() async throws -> Session {
        try await session.value { try await self.handshake() }
    }

    private func handshake() async throws -> Session {
        let rootAnswer = try await send(.GET, api + "/root-certificate")
        let root = Array(rootAnswer.body)
        if let trusted = configuration.rootCertificate, Array(trusted) != root {
            throw StoreKitError.systemError(OpenStoreKitError.untrustedStore(
                "the store at \(base) signs with another root certificate than the one this client trusts"))
        }
        struct Apps: Decodable { struct App: Decodable { var bundleId: String; var environment: String }; var apps: [App] }
        let apps = try decode(Apps.self, try await send(.GET, api + "/apps"))
        guard let app = apps.apps.first(where: { $0.bundleId == configuration.bundleID }) else {
            throw StoreKitError.systemError(OpenStoreKitError.appNotFound(
                "the store at \(base) sells no app with bundle ID \(configuration.bundleID) (it sells \(apps.apps.map(\.bundleId).joined(separator: ", ")))"))
        }
        let jws: JWSVerifier
        do {
            jws = try JWSVerifier(rootCertificateDER: root)
        } catch {
            throw StoreKitError.systemError(OpenStoreKitError.untrustedStore("the store's root certificate is not valid DER"))
        }
        return Session(verifier: LocalVerifier(jws: jws, bundleID: configuration.bundleID, environment: app.environment, logger: logger),
                       rootDER: root)
    }

    private func ensureCustomer() async throws {
        if let storefront = configuration.storefront {
            _ = try await send(.PUT, account, json: ["storefront": storefront])
            return
        }
        do {
            _ = try await send(.GET, account)
        } catch StoreKitError.systemError(OpenStoreKitError.customerNotFound(let message)) {
            guard configuration.createsCustomer else {
                throw StoreKitError.systemError(OpenStoreKitError.customerNotFound(
                    "\(message); create it (PUT \(account)), buy with `openstore purchase --customer`, or configure with createsCustomer"))
            }
            _ = try await send(.PUT, account, json: [:])
        }
    }

    /// Checks the store is reachable and knows the app and the customer, as a first call would.
    public func connect() async throws {
        _ = try await start()
    }

    /// The verifier for signed data from this store (connecting first if needed): verify a JWS
    /// that reached the app some other way exactly as StoreKit's own calls are verified.
    public func verifier() async throws -> LocalVerifier { try await start().verifier }

    // MARK: HTTP

    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    /// Which StoreKit error family a refusal maps to.
    enum Refusals: Sendable {
        case general
        case purchase
        case refund
    }

    /// One request with the configured timeout. A failure to reach the store is
    /// `StoreKitError.networkError`; a refusal maps to StoreKit's errors (see `refusal`).
    func send(_ method: HTTPMethod, _ url: String, json: [String: Any]? = nil, refusals: Refusals = .general) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let timeout = TimeAmount.nanoseconds(Int64(configuration.requestTimeout.components.seconds) * 1_000_000_000
                                             + configuration.requestTimeout.components.attoseconds / 1_000_000_000)
        let answer: Answer
        do {
            let response = try await http.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
            answer = Answer(status: Int(response.status.code), body: Data(bytes.readableBytesView))
        } catch {
            throw Self.networkError(error, url: url)
        }
        guard (200..<300).contains(answer.status) else { throw refusal(answer, refusals: refusals) }
        return answer
    }

    static func networkError(_ error: any Error, url: String) -> StoreKitError {
        let timedOut = (error as? HTTPClientError) == .deadlineExceeded || (error as? HTTPClientError) == .readTimeout
            || (error as? HTTPClientError) == .connectTimeout
        let code: URLError.Code = timedOut ? .timedOut : .cannotConnectToHost
        let text = timedOut ? "the store did not answer in time (\(url))" : "cannot reach the store (\(url)): \(error)"
        return .networkError(URLError(code, userInfo: [NSLocalizedDescriptionKey: text, NSURLErrorFailingURLStringErrorKey: url]))
    }

    /// The store's `{"error": code, "message": text}` as StoreKit's errors.
    func refusal(_ answer: Answer, refusals: Refusals) -> any Error {
        struct Body: Decodable { var error: String?; var message: String? }
        let body = try? JSONDecoder().decode(Body.self, from: answer.body)
        let code = body?.error ?? "http\(answer.status)"
        let message = body?.message ?? "HTTP \(answer.status)"
        if refusals == .purchase, let error = Product.PurchaseError(code: code) { return error }
        if refusals == .refund {
            switch code {
            case "duplicateRequest": return Transaction.RefundRequestError.duplicateRequest
            case "failed", "invalidAction": return Transaction.RefundRequestError.failed
            default: break
            }
        }
        if let error = StoreKitError(code: code) { return error }
        switch code {
        case "appNotFound": return StoreKitError.systemError(OpenStoreKitError.appNotFound(message))
        case "customerNotFound": return StoreKitError.systemError(OpenStoreKitError.customerNotFound(message))
        case "worldNotFound": return StoreKitError.systemError(OpenStoreKitError.worldNotFound(message))
        default: return StoreKitError.systemError(OpenStoreKitError.storeRefused(code: code, message: message))
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ answer: Answer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: answer.body)
        } catch {
            throw StoreKitError.systemError(OpenStoreKitError.badResponse("\(T.self) expected: \(error)"))
        }
    }
}

/// What a connection establishes once (the session, the account); concurrent first calls share
/// one attempt, and a failure is not remembered.
actor OnceValue<Value: Sendable> {
    private var ready: Value?
    private var running: Task<Value, any Error>?

    func value(_ make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let ready { return ready }
        if let running { return try await running.value }
        let task = Task { try await make() }
        running = task
        do {
            let session = try await task.value
            ready = session
            running = nil
            return session
        } catch {
            running = nil
            throw error
        }
    }
}

/// A listed product: its ID in one storefront (nil: the store's default).
struct ProductCacheKey: Hashable, Sendable {
    var storefront: String?
    var id: String
}
