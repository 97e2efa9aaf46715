/// The store's tables in portable SQL: it runs unchanged on SQLite and PostgreSQL
/// (BIGINT ids, TEXT, INTEGER flags, `ON CONFLICT ... DO UPDATE` upserts).
enum Schema {
    static let version = 1

    static let statements: [String] = [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS apps (
            bundle_id TEXT PRIMARY KEY, app_apple_id BIGINT NOT NULL, environment TEXT NOT NULL,
            name TEXT NOT NULL, catalog TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS customers (
            world TEXT NOT NULL, name TEXT NOT NULL, storefront TEXT NOT NULL, locale TEXT NOT NULL,
            created_ms BIGINT NOT NULL, PRIMARY KEY (world, name))
        """,
        """
        CREATE TABLE IF NOT EXISTS app_transactions (
            world TEXT NOT NULL, bundle_id TEXT NOT NULL, customer TEXT NOT NULL,
            app_transaction_id TEXT NOT NULL, application_version TEXT NOT NULL,
            original_application_version TEXT NOT NULL, original_purchase_ms BIGINT NOT NULL,
            original_platform TEXT NOT NULL, created_ms BIGINT NOT NULL,
            PRIMARY KEY (world, bundle_id, customer))
        """,
        """
        CREATE TABLE IF NOT EXISTS transactions (
            id BIGINT PRIMARY KEY, world TEXT NOT NULL, seq BIGINT NOT NULL, original_id BIGINT NOT NULL,
            bundle_id TEXT NOT NULL, customer TEXT NOT NULL, product_id TEXT NOT NULL,
            product_kind TEXT NOT NULL, group_id TEXT, purchase_ms BIGINT NOT NULL, expires_ms BIGINT,
            revoked_ms BIGINT, finished INTEGER NOT NULL, order_id TEXT NOT NULL, ownership TEXT NOT NULL,
            payload TEXT NOT NULL)
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS transactions_seq ON transactions (seq)",
        "CREATE INDEX IF NOT EXISTS transactions_customer ON transactions (world, bundle_id, customer, seq)",
        "CREATE INDEX IF NOT EXISTS transactions_original ON transactions (original_id)",
        "CREATE INDEX IF NOT EXISTS transactions_order ON transactions (world, order_id)",
        """
        CREATE TABLE IF NOT EXISTS subscriptions (
            world TEXT NOT NULL, original_id BIGINT NOT NULL, bundle_id TEXT NOT NULL,
            customer TEXT NOT NULL, group_id TEXT NOT NULL, product_id TEXT NOT NULL,
            state TEXT NOT NULL, updated_ms BIGINT NOT NULL, PRIMARY KEY (world, original_id))
        """,
        "CREATE INDEX IF NOT EXISTS subscriptions_customer ON subscriptions (world, bundle_id, customer)",
    ]
}
