/// A page a server can serve: an ID for its URL, the app whose catalog it sells from, and a
/// factory, because each request renders a fresh page value (fresh `@State`).
public struct StorePage: Sendable {
    /// Names the page in its URL (`/store/<id>`) and for `DemoStorePages.page(_:)`.
    public let id: String
    /// The app whose catalog the page sells from; a page is listed only when the store has that app.
    public let bundleId: String
    /// The page's document title, also its name in the page index.
    public let title: String
    /// One line shown under the title in the page index; empty for none.
    public let summary: String
    /// Builds a fresh page value for each request.
    public let make: @Sendable () -> AnyView

    /// A page named `id`, selling from `bundleId`'s catalog.
    public init(id: String, bundleId: String, title: String, summary: String = "", make: @escaping @Sendable () -> AnyView) {
        self.id = id
        self.bundleId = bundleId
        self.title = title
        self.summary = summary
        self.make = make
    }
}
