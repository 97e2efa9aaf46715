/// The tables behind many store instances on one PostgreSQL (docs/deploy.md): who owns each
/// world (a lease with an expiry and an epoch), which instances are alive, and the blocks of
/// transaction IDs and change numbers each instance takes. Portable SQL, so a SQLite store has
/// them too (empty: one process owns every world there).
enum LeaseSchema {
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS world_leases (
            world TEXT PRIMARY KEY, owner TEXT NOT NULL, address TEXT NOT NULL,
            epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS world_leases_owner ON world_leases (owner)",
        """
        CREATE TABLE IF NOT EXISTS store_instances (
            id TEXT PRIMARY KEY, address TEXT NOT NULL, started_ms BIGINT NOT NULL, heartbeat_ms BIGINT NOT NULL)
        """,
        "CREATE TABLE IF NOT EXISTS id_blocks (k BIGINT PRIMARY KEY, next_id BIGINT NOT NULL, next_seq BIGINT NOT NULL)",
    ]
}
