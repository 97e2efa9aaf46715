import AsyncHTTPClient
import StoreEngine
import StoreViews

/// A live store serving `pages` for `apps`, and a client that does not follow redirects (a page's
/// action answers 303), for the store-page tests; both are shut down however the body ends.
func withStorePages(_ apps: [StoreApp], _ pages: [StorePage], _ body: (LiveServer, HTTPClient) async throws -> Void) async throws {
    let server = try await LiveServer.start(apps: apps, storePages: pages)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    do { try await body(server, client) } catch {
        try? await client.shutdown()
        await server.stop()
        throw error
    }
    try await client.shutdown()
    await server.stop()
}
