@_spi(Internal) import Hummingbird
import Synchronization

/// Which methods each route path serves, so a path that exists answers a method it does not
/// serve with 405 and `Allow` (RFC 9110 §15.5.6) instead of the router's 404. The store and the
/// subscription backend both answer this way.
///
/// The paths are resolved by Hummingbird's own trie, built from the router's routes, so a path
/// resolves to the same route the router picks: `/messaging/image/list` is the literal `list`
/// route (GET), not the `{imageIdentifier}` one (DELETE, PUT) it also fits.
public final class AllowedMethods: Sendable {
    private let trie = Mutex<RouterTrie<[String]>?>(nil)

    public init() {}

    /// Reads the router's routes once they are all registered.
    public func load<Context>(_ described: [Router<Context>.RouteDescription]) {
        var byPath: [String: (path: RouterPath, methods: Set<String>)] = [:]
        for route in described {
            byPath[route.path.description, default: (route.path, [])].methods.insert(route.method.rawValue)
        }
        let builder = RouterPathTrieBuilder<[String]>()
        for (path, methods) in byPath.values {
            builder.addEntry(path, value: methods.sorted())
        }
        let built = builder.build()
        trie.withLock { $0 = built }
    }

    /// The methods the route `path` resolves to is served with, sorted; empty when no route
    /// has this path.
    public func methods(for path: String) -> [String] {
        trie.withLock { $0 }?.resolve(path)?.value ?? []
    }

    /// The methods to name in a 405's `Allow` when `method` is not among them; nil when the path
    /// has no route (404) or does serve the method.
    public func refusal(of method: String, at path: String) -> [String]? {
        let methods = methods(for: path)
        return methods.isEmpty || methods.contains(method) ? nil : methods
    }
}
