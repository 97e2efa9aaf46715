import Foundation
import StoreSigning
import StoreStorage
import Synchronization

/// Who called the Server API: the key, and the app and world it was registered for.
public struct ServerAPICaller: Sendable, Equatable {
    /// The key's ID, the token's `kid`.
    public var keyId: String
    /// The key's issuer ID, the token's `iss`.
    public var issuerId: String
    /// The app the token names (`bid`); every endpoint answers for this app only.
    public var bundleId: String
    /// The world the key was registered in; every endpoint reads and writes that world.
    public var world: String

    /// For tools and benchmarks that call the engine directly, without a bearer token.
    public init(keyId: String, issuerId: String, bundleId: String, world: String) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.world = world
    }
}

/// Why a caller was refused before any endpoint ran. Apple answers each with a bare HTTP 401.
public enum ServerAPIAuthFailure: Error, Sendable, Equatable {
    case missingToken
    case token(APIAuthError)
}

/// The door of the App Store Server API: authenticates bearer tokens against the registered keys
/// (reference §2) and applies the optional per-key rate limit.
///
/// Keys are read through to the database on a miss, so a key that `openstore keys create` adds
/// while the server runs works at once; found keys are cached (keys are never changed in place).
public final class ServerAPIGateway: Sendable {
    /// The store whose keys authenticate callers and whose clock dates the tokens.
    public let store: AppStore
    /// Requests per minute per key; nil = unlimited.
    public let rateLimitPerMinute: Int?
    let verifier: APITokenVerifier

    private struct State {
        /// Keys read from the database and when: an entry older than `keyCacheSeconds` is read
        /// again, so a key revoked through another instance sharing the database stops working
        /// here too within that time.
        var keys: [String: (record: APIKeyRecord, readAt: TimeInterval)] = [:]
        /// Per key: start of the current one-minute window and requests counted in it.
        var windows: [String: (start: TimeInterval, count: Int)] = [:]
    }
    private let state = Mutex(State())
    static let keyCacheSeconds: TimeInterval = 5

    /// A gateway for `store`; a rate limit of nil or 0 or less means unlimited.
    public init(store: AppStore, rateLimitPerMinute: Int? = nil, verifier: APITokenVerifier = APITokenVerifier()) {
        self.store = store
        self.rateLimitPerMinute = rateLimitPerMinute.flatMap { $0 > 0 ? $0 : nil }
        self.verifier = verifier
    }

    /// Authenticates a bearer token (the server takes it out of the `Authorization` header) at
    /// `now`, by default the store clock's real time (tokens are made by real clients, whatever a
    /// world's clock says), then counts the request against the key.
    public func authenticate(token: String?, now: Date? = nil) async throws -> ServerAPICaller {
        let now = now ?? store.clock.now()
        guard let token, !token.isEmpty else { throw ServerAPIAuthFailure.missingToken }
        guard let kid = Self.keyId(of: token) else { throw ServerAPIAuthFailure.token(.malformed) }
        let record = try await key(kid)
        let claims: APIClaims
        do {
            claims = try verifier.verify(token, now: now) { id in
                guard let record, record.keyId == id else { return nil }
                return APIKey(keyId: record.keyId, issuerId: record.issuerId, bundleId: record.bundleId, publicKeyPEM: record.publicKeyPEM)
            }
        } catch {
            throw ServerAPIAuthFailure.token(error)
        }
        guard let record else { throw ServerAPIAuthFailure.token(.unknownKey) }
        // A key of a deleted world opens nothing (StoreError.worldNotFound answers 401).
        _ = try await store.loadedWorld(record.world)
        let caller = ServerAPICaller(keyId: claims.keyId, issuerId: claims.issuer, bundleId: claims.bundleId, world: record.world)
        try countRequest(keyId: caller.keyId, now: now)
        return caller
    }

    func key(_ id: String) async throws -> APIKeyRecord? {
        guard id.count <= 64, !store.revokedKeys.isRevoked(id) else { return nil }
        // The cache's age is real time, not the store's clock: it bounds how long another
        // instance's key change takes to reach this one, which a world's time jump must not stretch.
        let now = Date().timeIntervalSince1970
        if let cached = state.withLock({ $0.keys[id] }), now - cached.readAt < Self.keyCacheSeconds { return cached.record }
        guard let stored = try await store.database.apiKey(id: id) else {
            state.withLock { _ = $0.keys.removeValue(forKey: id) }
            return nil
        }
        state.withLock { $0.keys[id] = (stored, now) }
        return stored
    }

    private func countRequest(keyId: String, now: Date) throws(ServerAPIError) {
        guard let limit = rateLimitPerMinute else { return }
        let seconds = now.timeIntervalSince1970
        let (allowed, start) = state.withLock { state -> (Bool, Double) in
            var window = state.windows[keyId] ?? (start: seconds, count: 0)
            if seconds - window.start >= 60 || seconds < window.start { window = (start: seconds, count: 0) }
            window.count += 1
            state.windows[keyId] = window
            return (window.count <= limit, window.start)
        }
        guard allowed else {
            var refusal = ServerAPIError.rateLimitExceeded
            refusal.retryAtMs = Int64(((start + 60) * 1000).rounded(.up))  // the window's end
            throw refusal
        }
    }

    /// The `kid` of a bearer token's header, without verifying anything yet.
    static func keyId(of token: String) -> String? {
        guard let headerEnd = token.firstIndex(of: "."),
              let bytes = Base64URL.decode(token[..<headerEnd]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes))
        else { return nil }
        return header.kid
    }

    private struct Header: Decodable { var kid: String? }
}

extension AppStore {
    func createAPIKey(bundleId: String, world: String, issuerId: String? = nil) async throws -> GeneratedAPIKey {
        try await Self.createAPIKey(in: database, bundleId: bundleId, world: world, issuerId: issuerId, clock: clock)
    }

    /// The same on a bare database, for the CLI (which may run beside a serving store). The key's
    /// creation date is read from `clock`.
    public static func createAPIKey(
        in database: StoreDatabase, bundleId: String, world: String, issuerId: String? = nil,
        clock: any StoreClock = SystemClock()
    ) async throws -> GeneratedAPIKey {
        guard !bundleId.isEmpty, bundleId.count <= 255 else { throw StoreError.malformedRequest("a bundle ID must be 1–255 characters") }
        guard !world.isEmpty, world.count <= 200 else { throw StoreError.malformedRequest("a world name must be 1–200 characters") }
        let generated = APIKeyFactory.generate(bundleId: bundleId, issuerId: issuerId)
        try await database.insertAPIKey(APIKeyRecord(
            keyId: generated.key.keyId, issuerId: generated.key.issuerId, bundleId: bundleId, world: world,
            publicKeyPEM: generated.key.publicKeyPEM, createdMs: clock.now().milliseconds))
        return generated
    }
}
