import HTTPTypes
import Hummingbird
import Synchronization

/// Which methods each route path serves, so a path that exists answers a method it does not
/// serve with 405 and `Allow` (RFC 9110 §15.5.6) instead of the router's 404.
final class AllowedMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: String)]>([])

    /// Reads the router's routes once they are all registered.
    func load(_ described: [Router<StoreRequestContext>.RouteDescription]) {
        let table = described.map { (path: $0.path, method: $0.method.rawValue) }
        routes.withLock { $0 = table }
    }

    /// The methods `path` is served with, sorted; empty when no route has this path.
    func methods(for path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let table = routes.withLock { $0 }
        return Set(table.filter { Self.matches($0.path, segments) }.map(\.method)).sorted()
    }

    /// Whether a route's path takes these segments: literal segments equal, captures and
    /// wildcards match one segment, `**` the rest.
    static func matches(_ path: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for component in path.components {
            if component.description == "**" { return true }
            guard index < segments.count, component ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}
