/// A page a server can serve: an ID for its URL, the app whose catalog it sells from, and a
/// factory, because each request renders a fresh page value (fresh `@State`).
public struct StorePage: Sendable {
    public let id: String
    public let bundleId: String
    public let title: String
    public let summary: String
    public let make: @Sendable () -> AnyView

    public init(id: String, bundleId: String, title: String, summary: String = "", make: @escaping @Sendable () -> AnyView) {
        self.id = id
        self.bundleId = bundleId
        self.title = title
        self.summary = summary
        self.make = make
    }
}
