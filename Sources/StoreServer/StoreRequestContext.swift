import Hummingbird
import Logging
import NIOCore
import StoreEngine
import Synchronization

/// The store's request context, as Hummingbird's `RequestContext` intends: what one request
/// carries from its connection to its handler, and back up to the outer middlewares, without
/// task-locals. Every route of the store is written against it.
public struct StoreRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// Who is on the other end of the connection, for the admin API's and `/manage`'s
    /// loopback-only rule; nil when unknown (a router tested without a socket).
    public var peer: SocketAddress?
    /// What inner layers tell outer ones; a class, so every copy of the context shares it.
    let facts: RequestFacts

    /// Made by the application for each request, from its connection.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peer = source.channel.remoteAddress
        self.facts = RequestFacts()
    }

    /// A handle on a world that notes, for this request, a world another instance serves, so
    /// `WorldForwardingMiddleware` replays the request there whatever the handler makes of the error.
    func world(_ id: String, in store: AppStore) -> StoreWorld {
        store.world(id, reportingTo: facts.misses)
    }

    /// Keeps the fault behind a 5xx for the request log, which logs it once with the request's context.
    func recordFailure(_ error: any Error) {
        facts.failure = String(describing: error)
    }

    /// Notes a `WorldElsewhere` that reached an error middleware (a verb outside a world handle).
    func noteElsewhere(_ error: any Error) {
        if let elsewhere = error as? WorldElsewhere { facts.misses.record(elsewhere) }
    }
}

/// What a request's handlers and inner middlewares leave for its outer middlewares.
final class RequestFacts: Sendable {
    /// Worlds the request found served by another instance: `WorldForwardingMiddleware` forwards it.
    let misses = WorldMisses()
    private let failureText = Mutex<String?>(nil)
    /// The fault behind a 5xx answer, handed from the error middleware to the request log, which
    /// logs the failure once, with the request's context, instead of twice.
    var failure: String? {
        get { failureText.withLock { $0 } }
        set { failureText.withLock { $0 = newValue } }
    }
}
