import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import SQLKit
import StoreStorage
import StoreTestSupport
import Testing
@testable import SubscriptionBackend
import StoreShared

/// The backend on PostgreSQL outlives its connections: cut by the server (as a restart does),
/// they are opened again, with the schema's `search_path`, by the next request, which succeeds;
/// while the database refuses connections, requests are 503 with `Retry-After` and the backend
/// recovers once it is back. Each run has a database of its own, so cutting its connections
/// touches no other test.
@Suite struct PostgresReconnectTests {
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil))
    func cutConnectionsAreReopenedByTheNextRequest() async throws {
        try await withOwnDatabase { url, location, server in try await finishing(within: 90) {
            let kit = try SignedDataKit()
            let database = try await BackendDatabase.open(url: url, schema: "bk_reconnect")
            let backend = try SubscriptionBackend(
                configuration: BackendConfiguration(apps: [AppConfiguration(bundleId: kit.bundleId, environments: ["Sandbox"], trustAppleRoot: false)]),
                database: database, extraRootsDER: [kit.authority.rootDER])
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let running = try await serveOnLoopback(BackendHTTPServer(
                backend: backend, reconciler: Reconciler(backend: backend, http: http),
                dispatcher: WebhookDispatcher(backend: backend, http: http)).makeRouter())
            do {
                let base = "http://127.0.0.1:\(running.port)/v1/customers/ann"
                func post(_ id: Int) async throws -> HTTPClientResponse {
                    let signed = try kit.sign(kit.transaction(id: "\(id)", original: "\(id)", product: "coins", purchase: SignedDataKit.start + Int64(id),
                                                              expires: nil, type: "Consumable"))
                    var request = HTTPClientRequest(url: base + "/transactions")
                    request.method = .POST
                    request.body = .bytes(ByteBuffer(string: "{\"signedTransaction\": \"\(signed)\"}"))
                    return try await http.execute(request, timeout: .seconds(20))
                }
                func purchases() async throws -> (status: UInt, count: Int?) {
                    let response = try await http.execute(HTTPClientRequest(url: base), timeout: .seconds(20))
                    let body = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                    let info = try? JSONDecoder().decode(CustomerInfo.self, from: body)
                    return (response.status.code, info?.nonSubscriptions.count)
                }

                #expect(try await post(1).status == .ok)
                #expect(try await purchases() == (200, 1))

                // As a server restart does: every connection of the backend is cut between requests.
                try await server.cut(location.database)
                #expect(try await purchases() == (200, 1), "the reader reconnects, into the schema")
                #expect(try await post(2).status == .ok, "the writer reconnects")
                #expect(try await purchases() == (200, 2))

                // The database away: 503 with Retry-After, and an error naming the server, not its password.
                try await server.run("ALTER DATABASE \(location.database) ALLOW_CONNECTIONS false")
                try await server.cut(location.database)
                let refused = try await post(3)
                #expect(refused.status == .serviceUnavailable && refused.headers.first(name: "Retry-After") == "2")
                #expect(try await purchases().status == 503)
                do {
                    _ = try await backend.customerInfo(appUserId: "ann")
                    Issue.record("a read while the database is away succeeded")
                } catch let error as StorageUnavailable {
                    #expect(error.description.contains("\(location.host):\(location.port)") && error.description.contains(location.database))
                    if let password = location.password { #expect(!error.description.contains(password)) }
                }

                // Back again: the same backend writes and reads without a restart.
                try await server.run("ALTER DATABASE \(location.database) ALLOW_CONNECTIONS true")
                #expect(try await post(3).status == .ok)
                #expect(try await purchases() == (200, 3))
            } catch {
                await running.stop()
                try? await http.shutdown()
                await database.close()
                throw error
            }
            await running.stop()
            try await http.shutdown()
            await database.close()
        } }
    }

    /// The window PostgresNIO leaves open: a statement handed to a connection that closed after
    /// the link gave it out (between the `isClosed` check and the send) is written nowhere, and
    /// PostgresNIO never answers it. Guarded (`PostgresCloseWatch`), it fails at once as a lost
    /// connection, and the link's next use opens a new connection.
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil))
    func aStatementOnAConnectionClosedUnderItFailsAtOnceAndTheNextUseReconnects() async throws {
        guard let text = BackendTestEngine.postgresURL, case .postgres(let server) = try DatabaseURL(parsing: text) else { return }
        let link = try PostgresLink(location: server, id: 7, logger: .init(label: "backend.tests"))
        try await finishing(within: 30) {
            let connection = try await link.connection()
            try await connection.close()
            let error = await #expect(throws: (any Error).self) {
                try await PostgresConnectionSQL(connection, logger: link.logger).raw("SELECT 1").run()
            }
            #expect(error.map { PostgresFailure.isConnectionLoss($0, connection: connection) } == true)
            // A transaction begun now gets a new connection, and its statements run.
            let fresh = try await link.begin()
            #expect(fresh !== connection)
            let rows = try await PostgresConnectionSQL(fresh, logger: link.logger).raw("SELECT 1 AS one").all()
            #expect(rows.count == 1)
            _ = await link.abandon(fresh, after: CancellationError())
        }
        await link.close()
    }

    /// Runs `body` with a new database on the test server (`OPENSTORE_TEST_POSTGRES_URL`), its
    /// URL and location, and a link to the server's own database; drops the new one afterwards,
    /// also on failure.
    func withOwnDatabase(_ body: (String, DatabaseURL.PostgresLocation, AdminLink) async throws -> Void) async throws {
        guard let text = BackendTestEngine.postgresURL, case .postgres(let server) = try DatabaseURL(parsing: text),
              var url = URLComponents(string: text) else { return }
        let admin = AdminLink(link: try PostgresLink(location: server, id: 99, logger: .init(label: "backend.tests")))
        var own = server
        own.database = "bk_r_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        url.path = "/" + own.database
        try await admin.run("CREATE DATABASE \(own.database)")
        do {
            try await body(url.string ?? text, own, admin)
        } catch {
            try? await admin.run("DROP DATABASE IF EXISTS \(own.database) WITH (FORCE)")
            await admin.link.close()
            throw error
        }
        try await admin.run("DROP DATABASE IF EXISTS \(own.database) WITH (FORCE)")
        await admin.link.close()
    }
}

/// A connection to the test server's own database, for what the backend under test cannot do to
/// itself.
struct AdminLink {
    let link: PostgresLink

    func run(_ statement: String) async throws {
        try await link.sql.raw(SQLQueryString(statement)).run()
    }

    /// Cuts every connection to `database` and waits until their server processes are gone.
    func cut(_ database: String) async throws {
        try await run("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '\(database)'")
    }
}
