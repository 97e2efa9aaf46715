import SQLKit

/// An App Store Server API key as stored: the public half only, scoped to one app and one world.
public struct APIKeyRecord: Sendable, Equatable {
    public var keyId: String
    public var issuerId: String
    public var bundleId: String
    public var world: String
    public var publicKeyPEM: String
    public var createdMs: Int64
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

    public func apiKey(id: String) async throws -> APIKeyRecord? {
        try await readSQL.raw("SELECT * FROM api_keys WHERE key_id = \(bind: id)").first().map(Self.apiKey(from:))
    }

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
