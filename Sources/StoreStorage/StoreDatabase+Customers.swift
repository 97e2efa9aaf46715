import SQLKit

extension StoreDatabase {
    /// Names of a world's customers, sorted, for pickers and listings (at most `limit`).
    public func customerNames(world: String, limit: Int = 200) async throws -> [String] {
        try await readSQL.raw("""
            SELECT name FROM customers WHERE world = \(bind: world) ORDER BY name LIMIT \(bind: limit)
            """).all().map { try $0.decode(column: "name", as: String.self) }
    }
}
