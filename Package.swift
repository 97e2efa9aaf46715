// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "OpenStoreKit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "openstore", targets: ["openstore"]),
        .library(name: "StoreModel", targets: ["StoreModel"]),
        .library(name: "StoreSigning", targets: ["StoreSigning"]),
        .library(name: "StoreEngine", targets: ["StoreEngine"]),
        .library(name: "StoreServer", targets: ["StoreServer"]),
        .library(name: "StoreNotifications", targets: ["StoreNotifications"]),
        .library(name: "StoreViews", targets: ["StoreViews"]),
        .library(name: "StoreKitTypes", targets: ["StoreKitTypes"]),
        .library(name: "OpenStoreKit", targets: ["OpenStoreKit"]),
        .library(name: "StoreKit", targets: ["StoreKit"]),
        .library(name: "StoreKitTest", targets: ["StoreKitTest"]),
        .library(name: "SubscriptionBackend", targets: ["SubscriptionBackend"]),
        .executable(name: "storekit-example", targets: ["storekit-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/vapor/sql-kit.git", exact: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", exact: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // `swift package generate-documentation` (scripts/docs.sh); a plugin only, nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The bottom: small shared infrastructure several modules use (the one wake primitive).
        // Infrastructure every layer shares, with no App Store rules: wake signal, clocks and UUID
        // sources, HTML writing, text safety, the database URL and PostgreSQL link, and the
        // "temporarily unavailable" protocol the servers answer 503 for.
        .target(name: "StoreShared", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // Apple's wire types and the .storekit catalog. Foundation only.
        .target(name: "StoreModel", swiftSettings: strict),
        // JWS ES256 with x5c, the certificate authority, JWT auth.
        .target(name: "StoreSigning", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ], swiftSettings: strict),
        // Durable state: SQLite (WAL) or PostgreSQL behind one storage contract.
        .target(name: "StoreStorage", dependencies: [
            "StoreModel", "StoreShared",
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "SQLiteKit", package: "sqlite-kit"),
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // The App Store's rules. Rules are pure; `AppStore` applies them to storage and signs.
        .target(name: "StoreEngine", dependencies: [
            "StoreModel", "StoreSigning", "StoreStorage", "StoreShared",
        ], swiftSettings: strict),
        // App Store Server Notifications V2: delivery from the outbox, retries on the world clock.
        .target(name: "StoreNotifications", dependencies: [
            "StoreEngine", "StoreShared",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // StoreKit 2's value types (Product, Transaction, VerificationResult, …), decoded from the
        // store's signed payloads. No networking, so views and clients can share them.
        .target(name: "StoreKitTypes", dependencies: ["StoreModel"], swiftSettings: strict),
        // StoreKit 2 for any Swift platform: a client of a running store over HTTP; verifies locally.
        .target(name: "OpenStoreKit", dependencies: [
            "StoreKitTypes", "StoreModel", "StoreSigning",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // `import StoreKit` on Linux: re-exports OpenStoreKit and Foundation, plus the original
        // In-App Purchase API (SKProductsRequest, SKPaymentQueue, the app receipt) over it.
        .target(name: "StoreKit", dependencies: ["OpenStoreKit"], swiftSettings: strict),
        // SKTestSession: an isolated store in the test's own process, one per session. The only
        // client-side module that may import the engine, because it hosts the store.
        .target(name: "StoreKitTest", dependencies: [
            "StoreKit", "OpenStoreKit", "StoreServer", "StoreEngine", "StoreModel", "StoreSigning", "StoreStorage",
            "StoreNotifications", .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // The developer's side: ingests notifications, keeps customer info, reconciles through the
        // Server API, sends webhooks. Knows only what a developer's server can know (never the engine).
        .target(name: "SubscriptionBackend", dependencies: [
            "StoreModel", "StoreSigning", "StoreShared",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "SQLiteKit", package: "sqlite-kit"),
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources")], swiftSettings: strict, plugins: ["EmbedResources"]),
        // The StoreKit 2 sample app for the command line (uses only OpenStoreKit).
        .executableTarget(name: "storekit-example", dependencies: ["OpenStoreKit"], swiftSettings: strict),
        // StoreView, ProductView, SubscriptionStoreView as HTML. Renders data; never touches storage.
        .target(name: "StoreViews", dependencies: ["StoreModel", "StoreKitTypes", "StoreShared"], swiftSettings: strict),
        // HTTP: device API, admin API, Server API. No business rules here.
        .target(name: "StoreServer", dependencies: [
            "StoreEngine", "StoreModel", "StoreSigning", "StoreViews", "StoreKitTypes", "StoreShared",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ], resources: [.copy("Resources")], swiftSettings: strict, plugins: ["EmbedResources"]),
        .executableTarget(name: "openstore", dependencies: [
            "StoreServer", "StoreEngine", "StoreModel", "StoreSigning", "StoreStorage", "StoreViews", "StoreKitTypes",
            "StoreNotifications", "SubscriptionBackend", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict, plugins: ["EmbedResources"]),
        // Resources compiled into the code, so `openstore` is one file (scripts/release.sh).
        .executableTarget(name: "embed-resources", swiftSettings: strict),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        .executableTarget(name: "openstore-bench", dependencies: [
            "OpenStoreKit", "StoreKitTest", "StoreServer", "StoreEngine", "StoreModel", "StoreSigning", "StoreStorage", "StoreViews", "StoreShared",
            "StoreNotifications", "SubscriptionBackend", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        .testTarget(name: "StoreModelTests", dependencies: ["StoreModel", "StoreTestSupport"], resources: [.copy("Fixtures")], swiftSettings: strict),
        // Test helpers shared by test modules (a test clock, a small catalog, temporary folders that don't outlive their test).
        .target(name: "StoreTestSupport", dependencies: ["StoreEngine"], path: "Sources/StoreTestSupport", swiftSettings: strict),
        .testTarget(name: "StoreViewsTests", dependencies: ["StoreViews", "StoreKitTypes", "StoreModel", "StoreShared"], swiftSettings: strict),
        .testTarget(name: "OpenStoreKitTests", dependencies: [
            "OpenStoreKit", "StoreKitTypes", "StoreServer", "StoreEngine", "StoreModel", "StoreStorage", "StoreSigning", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: strict),
        .testTarget(name: "StoreSharedTests", dependencies: ["StoreShared"], swiftSettings: strict),
        .testTarget(name: "StoreSigningTests", dependencies: ["StoreSigning", "StoreTestSupport"], swiftSettings: strict),
        .testTarget(name: "SubscriptionBackendTests", dependencies: [
            "SubscriptionBackend", "StoreModel", "StoreSigning", "StoreTestSupport", "StoreStorage", "StoreShared",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ], swiftSettings: strict),
        .testTarget(name: "StoreStorageTests", dependencies: [
            "StoreStorage", "StoreModel", "StoreShared", "StoreTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "SQLiteKit", package: "sqlite-kit"),
        ], swiftSettings: strict),
        .testTarget(name: "StoreEngineTests", dependencies: ["StoreEngine", "StoreModel", "StoreSigning", "StoreStorage", "StoreShared", "StoreTestSupport"], swiftSettings: strict),
        .testTarget(name: "StoreNotificationsTests", dependencies: [
            "StoreNotifications", "StoreServer", "StoreEngine", "StoreModel", "StoreSigning", "StoreStorage", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        .testTarget(name: "StoreServerTests", dependencies: [
            "StoreServer", "StoreEngine", "StoreModel", "StoreSigning", "StoreViews", "StoreKitTypes", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // Issue #28: app-shaped StoreKit 2 code (an SKDemo-style store, a Food Truck-style store
        // actor, an @Observable manager, period formatting, `StoreKit.` qualifiers), each file
        // starting with `import StoreKit`, compiled here and run against a live store by
        // StoreKitCompatTests. `Combine` is TEST SCAFFOLDING for Linux only (ObservableObject and
        // @Published, which app code imports Combine for); Apple platforms use the real one.
        .target(name: "Combine", path: "Tests/CompatScaffolding/Combine", swiftSettings: strict),
        .target(name: "StoreKitCompatFixtures", dependencies: [
            "StoreKit", .target(name: "Combine", condition: .when(platforms: [.linux])),
        ], path: "Tests/StoreKitCompatFixtures", swiftSettings: strict),
        .testTarget(name: "StoreKitCompatTests", dependencies: [
            "StoreKitCompatFixtures", "StoreKit", "OpenStoreKit", "StoreServer", "StoreEngine", "StoreModel", "StoreStorage",
            "StoreSigning", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: strict),
        // StoreKitTest (issue 29): SKTestSession's own tests, and an app-shaped example tested with it.
        .testTarget(name: "StoreKitTestTests", dependencies: [
            "StoreKitTest", "StoreKit", "StoreModel", "StoreSigning", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Hummingbird", package: "hummingbird"),
        ], resources: [.copy("Resources")], swiftSettings: strict),
        .testTarget(name: "StoreKitTestExampleTests", dependencies: ["StoreKitTest", "StoreKit"],
                    resources: [.copy("Resources")], swiftSettings: strict),
        // Issue 30: the original In-App Purchase API (in the StoreKit module) against a live store,
        // and the Apphud article's paywall app written over it (`import StoreKit` only).
        .executableTarget(name: "apphud-paywall-example", dependencies: ["StoreKit"], swiftSettings: strict),
        .testTarget(name: "StoreKit1Tests", dependencies: [
            "StoreKit", "OpenStoreKit", "StoreServer", "StoreEngine", "StoreModel", "StoreStorage", "StoreSigning", "StoreTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: strict),
    ]
)
