/// Migration 3: fewer index writes per purchase and renewal (#12 §5).
///
/// - On SQLite, `id BIGINT PRIMARY KEY` is not the table's row key (only a column declared exactly
///   `INTEGER PRIMARY KEY` is), so every insert into `transactions`, `lifecycle_events` and
///   `notifications` also wrote a hidden unique index on that column. The three tables are rebuilt
///   with their keys as the row key: the rows are then stored in key order, and an insert is one
///   B-tree fewer. SQLite cannot change a primary key in place, so each table is copied into a new
///   one, the old one dropped and the new one renamed (SQLite's documented procedure), then its
///   indexes are made again. Values and column order do not change.
/// - On both engines, the index that pages a customer's revoked transactions holds revoked rows
///   only (a partial index): the query asks for `revoked_ms IS NOT NULL`, and a purchase, which is
///   never revoked at birth, no longer writes to it.
enum IntegerKeySchema {
    static let revokedIndex = [
        "DROP INDEX IF EXISTS transactions_revoked",
        "CREATE INDEX IF NOT EXISTS transactions_revoked ON transactions (world, bundle_id, customer, revoked_ms, id) WHERE revoked_ms IS NOT NULL",
    ]

    static let sqlite: [String] = rebuild(
        "transactions",
        """
        id INTEGER PRIMARY KEY, world TEXT NOT NULL, seq BIGINT NOT NULL, original_id BIGINT NOT NULL,
        bundle_id TEXT NOT NULL, customer TEXT NOT NULL, product_id TEXT NOT NULL,
        product_kind TEXT NOT NULL, group_id TEXT, purchase_ms BIGINT NOT NULL, expires_ms BIGINT,
        revoked_ms BIGINT, finished INTEGER NOT NULL, order_id TEXT NOT NULL, ownership TEXT NOT NULL,
        payload TEXT NOT NULL
        """,
        columns: "id, world, seq, original_id, bundle_id, customer, product_id, product_kind, group_id, purchase_ms, expires_ms, revoked_ms, finished, order_id, ownership, payload",
        indexes: [
            "CREATE UNIQUE INDEX transactions_seq ON transactions (seq)",
            "CREATE INDEX transactions_customer ON transactions (world, bundle_id, customer, seq)",
            "CREATE INDEX transactions_original ON transactions (original_id)",
            "CREATE INDEX transactions_order ON transactions (world, order_id)",
            revokedIndex[1],
        ])
        + rebuild(
            "lifecycle_events",
            """
            seq INTEGER PRIMARY KEY, world TEXT NOT NULL, bundle_id TEXT NOT NULL, customer TEXT NOT NULL,
            type TEXT NOT NULL, subtype TEXT, transaction_id BIGINT, original_id BIGINT, at_ms BIGINT NOT NULL,
            data TEXT
            """,
            columns: "seq, world, bundle_id, customer, type, subtype, transaction_id, original_id, at_ms, data",
            indexes: ["CREATE INDEX lifecycle_events_world ON lifecycle_events (world, seq)"])
        + rebuild(
            "notifications",
            """
            seq INTEGER PRIMARY KEY, uuid TEXT NOT NULL, world TEXT NOT NULL, bundle_id TEXT NOT NULL,
            customer TEXT NOT NULL, environment TEXT NOT NULL, type TEXT NOT NULL, subtype TEXT,
            transaction_id BIGINT, original_id BIGINT, signed_ms BIGINT NOT NULL, body_key TEXT NOT NULL,
            body TEXT NOT NULL, transaction_json TEXT, renewal_json TEXT, test_token TEXT, next_attempt_ms BIGINT,
            attempt_count INTEGER NOT NULL, delivered INTEGER NOT NULL, attempts TEXT NOT NULL
            """,
            columns: """
                seq, uuid, world, bundle_id, customer, environment, type, subtype, transaction_id, original_id, signed_ms, \
                body_key, body, transaction_json, renewal_json, test_token, next_attempt_ms, attempt_count, delivered, attempts
                """,
            indexes: [
                "CREATE INDEX notifications_due ON notifications (world, next_attempt_ms, seq)",
                "CREATE INDEX notifications_history ON notifications (world, bundle_id, seq)",
                "CREATE INDEX notifications_customer ON notifications (world, bundle_id, customer, seq)",
                "CREATE INDEX notifications_test ON notifications (test_token)",
            ])

    /// SQLite's table rebuild: the dropped table takes its indexes with it.
    static func rebuild(_ table: String, _ definition: String, columns: String, indexes: [String]) -> [String] {
        [
            "CREATE TABLE \(table)_rebuilt (\(definition))",
            "INSERT INTO \(table)_rebuilt (\(columns)) SELECT \(columns) FROM \(table)",
            "DROP TABLE \(table)",
            "ALTER TABLE \(table)_rebuilt RENAME TO \(table)",
        ] + indexes
    }
}
