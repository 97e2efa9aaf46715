import AsyncHTTPClient
import StoreEngine
import StoreTestSupport
import StoreViews

/// A live store serving `pages` for `apps`, and a client that does not follow redirects (a page's
/// action answers 303), for the store-page tests; both are shut down however the body ends.
func withStorePages(_ apps: [StoreApp], _ pages: [StorePage], _ body: (LiveServer, HTTPClient) async throws -> Void) async throws {
    try await LiveServer.with(apps: apps, storePages: pages) { server in
        try await withStarted({ HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow)) },
                              stop: { try? await $0.shutdown() }) { client in try await body(server, client) }
    }
}
