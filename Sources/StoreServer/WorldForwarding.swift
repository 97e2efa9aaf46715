import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreEngine

/// Many instances on one PostgreSQL (docs/deploy.md): a request for a world another instance
/// owns is forwarded to that owner, so any instance behind any load balancer answers any request.
///
/// The engine tells which world a request wanted and where it lives (`WorldElsewhere`, noted in
/// the request context's `WorldMisses` by the world handle or the error middleware, whatever the
/// handler made of the error); this middleware replays
/// the request, body and headers, to the owner's advertised address and streams its answer back
/// (`Transaction.updates` too). Nothing of the request was done here. A request that was already
/// forwarded once is not forwarded again (the owners changed meanwhile): it gets the handler's
/// 503 with `Retry-After`.
struct WorldForwardingMiddleware: RouterMiddleware {
    typealias Context = StoreRequestContext
    let store: AppStore
    let instanceId: String

    static let forwardedHeader = "X-OpenStore-Forwarded-By"
    /// The largest body replayed; the biggest any route reads (`/verifyReceipt`'s 4 MB).
    static let maxBody = 4 * 1024 * 1024 + 1
    /// Hop-by-hop fields (RFC 9110 §7.6.1) and the length the client library sets itself. `Host`
    /// goes through: the owner then sees the address the client used, so the store pages'
    /// same-origin check (`Origin` against `Host`) and the links it writes stay right.
    static let skipped: Set<String> = ["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "content-length", "proxy-connection"]
    /// The same, for the owner's answer.
    static let skippedInAnswers = skipped.union(["host"])

    /// A dead owner (its lease not yet expired) refuses connections: fail within a second, so
    /// the caller gets 503 and retries once the lease has moved.
    /// Redirects are the client's to follow (a store page answers its form with 303).
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(1)),
        // Each forwarded Transaction.updates stream holds a connection for its whole life.
        connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 4096)))

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Only a body small enough to keep can be replayed: one announced larger (or streamed
        // without a length) goes to the handler untouched, which refuses it as it always does.
        guard Self.replayable(request.headers) else { return try await next(request, context) }
        var request = request
        let body = try await request.body.collect(upTo: Self.maxBody)
        request.body = RequestBody(buffer: body)
        let response = try await next(request, context)
        guard let miss = context.facts.misses.first else { return response }
        let forwarded = request.headers[HTTPField.Name(Self.forwardedHeader)!] != nil
        switch try? await store.placement(of: miss.world) {
        case .here?:
            // Its owner handed it back or died meanwhile: taken over here, so answer here.
            return try await next(request, context)
        case .elsewhere(let address)? where !forwarded:
            do {
                return try await forwardWhileOwnerLives(request, body: body, to: address, world: miss.world) ?? response
            } catch {
                context.logger.warning("forwarding to the owner of world \(miss.world) at \(address) failed: \(error)")
                return response
            }
        case .elsewhere?, nil:
            return response
        }
    }

    static func replayable(_ headers: HTTPFields) -> Bool {
        if let length = headers[.contentLength] { return Int(length).map { $0 <= maxBody } ?? false }
        return headers[.transferEncoding] == nil
    }

    /// Forwards, and gives up (nil: the caller answers 503 with `Retry-After`) if the owner's lease
    /// lapses before its answer begins: an owner that is paused (its kernel still accepts the
    /// connection) would otherwise hold the request until the deadline.
    private func forwardWhileOwnerLives(_ request: Request, body: ByteBuffer, to address: String, world: String) async throws -> Response? {
        let store = self.store
        let every = max((store.instance?.leaseMs ?? 10_000) / 3, 100)
        return try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask { try await self.forward(request, body: body, to: address) }
            group.addTask {
                while await store.leaseIsLive(world: world, at: address) {
                    try await Task.sleep(for: .milliseconds(every))
                }
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private func forward(_ request: Request, body: ByteBuffer, to address: String) async throws -> Response {
        var outgoing = HTTPClientRequest(url: address + request.uri.description)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers where !Self.skipped.contains(field.name.canonicalName) {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        // HTTPTypes keeps the Host header as the request's authority, not among its fields.
        if let authority = request.head.authority { outgoing.headers.replaceOrAdd(name: "Host", value: authority) }
        outgoing.headers.add(name: Self.forwardedHeader, value: instanceId)
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        // The deadline covers the answer's head only; a stream's body may last as long as it lasts.
        let answer = try await Self.client.execute(outgoing, deadline: .now() + .minutes(10))
        var headers = HTTPFields()
        for (name, value) in answer.headers where !Self.skippedInAnswers.contains(name.lowercased()) {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        let status = HTTPResponse.Status(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase)
        if let length = answer.headers.first(name: "content-length").flatMap(Int.init) {
            // A plain answer: read whole and sent with its length.
            let whole = try await answer.body.collect(upTo: max(length, 1))
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: whole))
        }
        // A stream (Server-Sent Events): passed on as it arrives.
        return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: answer.body))
    }
}
