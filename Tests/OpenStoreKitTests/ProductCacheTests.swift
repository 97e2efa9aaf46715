import Foundation
import OpenStoreKit
import StoreTestSupport
import Testing

/// Products are cached per storefront as StoreKit caches them: a second request for the same IDs
/// does not list them again, a new ID does, and a storefront change lists them in its prices.
@Suite struct ProductCacheTests {
    /// How many product listings the store answered, from its Prometheus counter.
    static func listings(_ store: ClientTestStore) async throws -> Int {
        let text = String(decoding: try await store.request(.GET, "/metrics").body, as: UTF8.self)
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("openstore_http_requests_total{") && $0.contains("/products\"") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }

    @Test(.timeLimit(.minutes(1))) func asecondRequestIsAnsweredFromTheCache() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("cas", world: world, storefront: "USA")) {
                let before = try await Self.listings(store)
                let first = try await Product.products(for: ["k.seeds", "k.guide"])
                #expect(try await Self.listings(store) == before + 1)
                let again = try await Product.products(for: ["k.guide", "k.seeds"])
                #expect(again.map(\.id) == ["k.guide", "k.seeds"] && Set(again) == Set(first))
                #expect(try await Self.listings(store) == before + 1)
                // A new ID is listed; the cached ones are not asked for again.
                let more = try await Product.products(for: ["k.seeds", "k.plus"])
                #expect(more.map(\.id) == ["k.seeds", "k.plus"])
                #expect(try await Self.listings(store) == before + 2)
                // Another storefront: listed afresh, in its currency.
                try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/cas", ["storefront": "FRA"])
                let french = try await Product.products(for: ["k.seeds"])
                #expect(french.first?.currencyCode == "EUR")
                #expect(try await Self.listings(store) == before + 3)
            }
        }
    }
}
