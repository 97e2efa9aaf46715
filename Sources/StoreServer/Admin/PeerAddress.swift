import Hummingbird
import NIOCore

/// Who is on the other end of the connection, for the admin API's loopback-only rule.
///
/// Hummingbird's `BasicRequestContext` drops the channel, and every route of the store is written
/// against it; rather than change the context type of every route, the server's outermost
/// responder reads the peer from the channel and hands it down as a task-local value.
enum PeerAddress {
    @TaskLocal static var current: SocketAddress?

    /// True for 127.0.0.0/8, ::1, IPv4-mapped loopback and Unix sockets (local by construction).
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address else { return false }
        switch address {
        case .unixDomainSocket: return true
        case .v4, .v6:
            guard let ip = address.ipAddress?.lowercased() else { return false }
            return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
        }
    }
}

/// The context the application creates per request: it keeps the channel, so the peer can be
/// read before the request is passed on as a `BasicRequestContext`.
struct PeerCapturingContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}

/// Wraps the store's router: records the peer address, then lets the router answer.
struct PeerRecordingRouter<Inner: HTTPResponderBuilder>: HTTPResponderBuilder
where Inner.Responder.Context == BasicRequestContext {
    let inner: Inner
    /// Where the peer address comes from: the connection's remote address. Tests inject another
    /// (an outside peer), since a CI container may have no address but loopback to connect from.
    let peer: @Sendable (any Channel) -> SocketAddress?

    init(_ inner: Inner, peer: @escaping @Sendable (any Channel) -> SocketAddress? = { $0.remoteAddress }) {
        self.inner = inner
        self.peer = peer
    }

    func buildResponder() -> Responder { Responder(inner: inner.buildResponder(), peer: peer) }

    struct Responder: HTTPResponder {
        let inner: Inner.Responder
        let peer: @Sendable (any Channel) -> SocketAddress?

        func respond(to request: Request, context: PeerCapturingContext) async throws -> Response {
            let source = ApplicationRequestContextSource(channel: context.channel, logger: context.logger)
            return try await PeerAddress.$current.withValue(peer(context.channel)) {
                try await inner.respond(to: request, context: BasicRequestContext(source: source))
            }
        }
    }
}
