/// The store's tables in portable SQL: it runs unchanged on SQLite and PostgreSQL
/// (BIGINT ids, TEXT, INTEGER flags, `ON CONFLICT ... DO UPDATE` upserts).
/// `Migrations` applies it as version 1; later changes are new migrations, never edits here.
enum Schema {
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
            status INTEGER NOT NULL, next_event_ms BIGINT, version BIGINT NOT NULL,
            state TEXT NOT NULL, updated_ms BIGINT NOT NULL, PRIMARY KEY (world, original_id))
        """,
        "CREATE INDEX IF NOT EXISTS subscriptions_customer ON subscriptions (world, bundle_id, customer)",
        "CREATE INDEX IF NOT EXISTS subscriptions_due ON subscriptions (world, next_event_ms)",
        """
        CREATE TABLE IF NOT EXISTS worlds (
            id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, config TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS lifecycle_events (
            seq BIGINT PRIMARY KEY, world TEXT NOT NULL, bundle_id TEXT NOT NULL, customer TEXT NOT NULL,
            type TEXT NOT NULL, subtype TEXT, transaction_id BIGINT, original_id BIGINT, at_ms BIGINT NOT NULL,
            data TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS lifecycle_events_world ON lifecycle_events (world, seq)",
        """
        CREATE TABLE IF NOT EXISTS world_records (
            world TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            PRIMARY KEY (world, kind, key))
        """,
        // App Store Server API (StoreDatabase+APIKeys.swift, StoreDatabase+ServerAPI.swift).
        """
        CREATE TABLE IF NOT EXISTS api_keys (
            key_id TEXT PRIMARY KEY, issuer_id TEXT NOT NULL, bundle_id TEXT NOT NULL, world TEXT NOT NULL,
            public_key_pem TEXT NOT NULL, created_ms BIGINT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS consumption_info (
            world TEXT NOT NULL, transaction_id BIGINT NOT NULL, version INTEGER NOT NULL,
            body TEXT NOT NULL, received_ms BIGINT NOT NULL, PRIMARY KEY (world, transaction_id))
        """,
        "CREATE INDEX IF NOT EXISTS app_transactions_id ON app_transactions (world, app_transaction_id)",
        "CREATE INDEX IF NOT EXISTS transactions_revoked ON transactions (world, bundle_id, customer, revoked_ms, id)",
        // App Store Server Notifications V2: the durable outbox and its history (StoreDatabase+Notifications.swift).
        """
        CREATE TABLE IF NOT EXISTS notifications (
            seq BIGINT PRIMARY KEY, uuid TEXT NOT NULL, world TEXT NOT NULL, bundle_id TEXT NOT NULL,
            customer TEXT NOT NULL, environment TEXT NOT NULL, type TEXT NOT NULL, subtype TEXT,
            transaction_id BIGINT, original_id BIGINT, signed_ms BIGINT NOT NULL, body_key TEXT NOT NULL,
            body TEXT NOT NULL, transaction_json TEXT, renewal_json TEXT, test_token TEXT, next_attempt_ms BIGINT,
            attempt_count INTEGER NOT NULL, delivered INTEGER NOT NULL, attempts TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS notifications_due ON notifications (world, next_attempt_ms, seq)",
        "CREATE INDEX IF NOT EXISTS notifications_history ON notifications (world, bundle_id, seq)",
        "CREATE INDEX IF NOT EXISTS notifications_customer ON notifications (world, bundle_id, customer, seq)",
        "CREATE INDEX IF NOT EXISTS notifications_test ON notifications (test_token)",
    ]
}
