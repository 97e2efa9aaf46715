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

    /// Makes `epoch` a key column (a unique index a foreign key could use): PostgreSQL then takes
    /// its strongest row lock for an update that changes the epoch (a grant) and a weaker one for
    /// an update that only extends the expiry (a heartbeat). Writers fence with `FOR KEY SHARE`
    /// (`LeaseCheck`), which the grant waits for and the heartbeat does not: an instance busy
    /// writing a clock jump still renews its leases on time.
    static let epochKey: [String] = [
        "CREATE UNIQUE INDEX IF NOT EXISTS world_leases_epoch ON world_leases (world, epoch)",
    ]
}
