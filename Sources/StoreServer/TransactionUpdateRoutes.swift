import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import StoreEngine
import StoreModel

/// `Transaction.updates`, pushed: `GET …/apps/{bundleId}/customers/{customer}/updates` streams a
/// customer's transaction changes as Server-Sent Events. Each event's `id` is a resume position
/// below which every change was durable and sent; a client that reconnects with `Last-Event-ID`
/// gets what changed after it, then live changes. Each event's `change` is its change number, for
/// de-duplication. A first connection starts with the unfinished transactions (no `id` until
/// `caughtUp`). Two live hints carry no `id`: `status` (a subscription's status changed with no
/// transaction, for `Status.updates`) and `storefront` (for `Storefront.updates`). Translation
/// only: the feed is `AppStore.transactionUpdates`.
struct TransactionUpdateRoutes {
    let store: AppStore
    /// Seconds between `: keep-alive` comments, so idle connections stay open through proxies
    /// and a client can tell a dead connection from a quiet one.
    var heartbeatSeconds: Double = 15

    func register(on router: Router<StoreRequestContext>) {
        for api in [router.group("storekit/v1"), router.group("storekit/v1/worlds/:world")] {
            api.get("apps/:bundleId/customers/:customer/updates") { request, context in try await updates(request, context) }
        }
    }

    /// What the writer loop sends: an update from the store, or a heartbeat.
    enum Output: Sendable {
        case update(TransactionUpdate)
        case heartbeat
    }

    func updates(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let world = try context.world()
        let resume = try Self.resumePosition(request)
        if let seconds = try request.queryValue("heartbeat") {
            guard let value = Double(seconds), value >= 0.05, value <= 300 else {
                throw RequestError.malformed("heartbeat must be a number of seconds from 0.05 to 300")
            }
            return try await stream(request, context, world: world, resume: resume, heartbeat: value)
        }
        return try await stream(request, context, world: world, resume: resume, heartbeat: heartbeatSeconds)
    }

    private func stream(_ request: Request, _ context: StoreRequestContext, world: String, resume: Int64?, heartbeat: Double) async throws -> Response {
        let feed = try await context.world(world, in: store).transactionUpdates(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"), after: resume)
        let store = self.store
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let (outputs, continuation) = AsyncStream.makeStream(of: Output.self, bufferingPolicy: .unbounded)
            let forward = Task {
                for await update in feed { continuation.yield(.update(update)) }
                continuation.finish()
            }
            let ticks = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(heartbeat))
                    continuation.yield(.heartbeat)
                }
            }
            defer {
                forward.cancel()
                ticks.cancel()
            }
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            // A server shutting down gracefully waits for open responses: the feed ends so it
            // need not wait for clients to leave (they reconnect to the next instance).
            try await withGracefulShutdownHandler {
                try await pump(outputs, into: &writer, store: store, world: world)
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        })
    }

    private func pump(_ outputs: AsyncStream<Output>, into writer: inout any ResponseBodyWriter, store: AppStore, world: String) async throws {
        for await output in outputs {
            switch output {
            case .heartbeat:
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
            case .update(.caughtUp(let position)):
                try await writer.write(ByteBuffer(string: "id: \(position)\nevent: caughtUp\ndata: {\"position\":\(position)}\n\n"))
            case .update(.subscriptionStatus(let group, let original)):
                // Hints carry no `id`: they move no resume position.
                var json = JSONWriter(capacity: 128)
                json.beginObject()
                json.field("subscriptionGroupIdentifier", group)
                json.field("originalTransactionId", String(original))
                json.endObject()
                try await writer.write(ByteBuffer(string: "event: status\ndata: \(String(decoding: json.bytes, as: UTF8.self))\n\n"))
            case .update(.storefront(let code)):
                var json = JSONWriter(capacity: 64)
                json.beginObject()
                json.field("countryCode", code)
                json.endObject()
                try await writer.write(ByteBuffer(string: "event: storefront\ndata: \(String(decoding: json.bytes, as: UTF8.self))\n\n"))
            case .update(.transaction(let position, let change, let signed)):
                let corrupt = (try? await store.world(world).simulatesVerificationFailure()) ?? false
                let jws = VerificationFault.apply(signed.jws, corrupt)
                // An unfinished transaction sent first has no resume position: a client dropped
                // before `caughtUp` starts again, and skips the changes it already has.
                let id = position.map { "id: \($0)\n" } ?? ""
                let positionField = position.map { "\"position\":\($0)," } ?? ""
                try await writer.write(ByteBuffer(string:
                    "\(id)event: transaction\ndata: {\(positionField)\"change\":\(change),\"signedTransaction\":\"\(jws)\"}\n\n"))
            }
        }
    }

    /// `Last-Event-ID` (what EventSource sends on reconnect), or `?lastEventId=` for clients that
    /// cannot set headers; nil for a first connection.
    static func resumePosition(_ request: Request) throws -> Int64? {
        let query = try request.queryValue("lastEventId")
        let text = request.headers[.init("Last-Event-ID")!] ?? query
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw RequestError.malformed("Last-Event-ID must be a position from an earlier event (a whole number), not \"\(text.prefix(40))\"")
        }
        return value
    }
}
