import SQLKit

/// Reads one per-world document by its key, so a lookup (an offer code, a used nonce) does not
/// read every document of its kind.
extension StoreDatabase {
    /// One document by its key, nil when absent.
    public func worldRecord(world: String, kind: String, key: String) async throws -> WorldRecord? {
        try await readSQL.raw("""
            SELECT world, kind, key, value FROM world_records
            WHERE world = \(bind: world) AND kind = \(bind: kind) AND key = \(bind: key)
            """).first().map {
                WorldRecord(world: try $0.decode(column: "world", as: String.self), kind: try $0.decode(column: "kind", as: String.self),
                            key: try $0.decode(column: "key", as: String.self), value: try $0.decode(column: "value", as: String.self))
            }
    }
}
