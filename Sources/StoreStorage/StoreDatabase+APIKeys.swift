import SQLKit

/// An App Store Server API key as stored: the public half only, scoped to one app and one world.
public struct APIKeyRecord: Sendable, Equatable {
    /// The header `kid` tokens are signed under: the primary key a key is looked up by.
    public var keyId: String
    /// The `iss` a token must carry.
    public var issuerId: String
    /// The app the key may call for: a token's `bid` must equal it.
    public var bundleId: String
    /// The world the key's Server API calls read and change.
    public var world: String
    /// SPKI PEM of the public half; the private `.p8` is handed out once and never stored.
    public var publicKeyPEM: String
    /// When the key was made; `apiKeys` lists keys oldest first.
    public var createdMs: Int64
    /// Written once, by `insertAPIKey`.
    public init(keyId: String, issuerId: String, bundleId: String, world: String, publicKeyPEM: String, createdMs: Int64) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.world = world
        self.publicKeyPEM = publicKeyPEM
        self.createdMs = createdMs
    }
}

/// Server API keys. Written by `openstore keys create` (often another process than the server),
/// read by the server on each unknown `kid`, so a key is usable as soon as it is committed.
extension StoreDatabase {
    /// Registers a key. A single autocommit statement; another process may hold the write lock
    /// for a moment, hence the busy timeout.
    public func insertAPIKey(_ key: APIKeyRecord) async throws {
        try await perform { sql in
            try await sql.raw("""
                INSERT INTO api_keys (key_id, issuer_id, bundle_id, world, public_key_pem, created_ms)
                VALUES (\(bind: key.keyId), \(bind: key.issuerId), \(bind: key.bundleId), \(bind: key.world),
                        \(bind: key.publicKeyPEM), \(bind: key.createdMs))
                """).run()
        }
    }

    /// The key a token's `kid` names, or nil. Read on each unknown `kid`, so a key another process
    /// just committed works at once.
    public func apiKey(id: String) async throws -> APIKeyRecord? {
        try await readSQL.raw("SELECT * FROM api_keys WHERE key_id = \(bind: id)").first().map(Self.apiKey(from:))
    }

    /// Registered keys, oldest first; only one app's when `bundleId` is given.
    public func apiKeys(bundleId: String? = nil) async throws -> [APIKeyRecord] {
        if let bundleId {
            return try await readSQL.raw("SELECT * FROM api_keys WHERE bundle_id = \(bind: bundleId) ORDER BY created_ms, key_id")
                .all().map(Self.apiKey(from:))
        }
        return try await readSQL.raw("SELECT * FROM api_keys ORDER BY created_ms, key_id").all().map(Self.apiKey(from:))
    }

    static func apiKey(from row: any SQLRow) throws -> APIKeyRecord {
        APIKeyRecord(
            keyId: try row.decode(column: "key_id", as: String.self),
            issuerId: try row.decode(column: "issuer_id", as: String.self),
            bundleId: try row.decode(column: "bundle_id", as: String.self),
            world: try row.decode(column: "world", as: String.self),
            publicKeyPEM: try row.decode(column: "public_key_pem", as: String.self),
            createdMs: try row.decode(column: "created_ms", as: Int64.self))
    }
}
