import Hummingbird
import NIOCore

/// Who is on the other end of the connection (`StoreRequestContext.peer`), for the admin API's
/// and `/manage`'s loopback-only rule.
enum PeerAddress {
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

/// Serves every request as if it came from `peer`: how tests see what an outside peer gets while
/// their connection is on loopback (`StoreHTTPServer.peerOverride`).
struct PeerOverrideMiddleware: RouterMiddleware {
    let peer: SocketAddress

    func handle(_ request: Request, context: StoreRequestContext,
                next: (Request, StoreRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        context.peer = peer
        return try await next(request, context)
    }
}
