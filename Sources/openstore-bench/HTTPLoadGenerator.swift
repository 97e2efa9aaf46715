import NIOCore
import NIOPosix

/// A closed-loop HTTP/1.1 keep-alive load generator on SwiftNIO.
///
/// Each connection has exactly one request in flight: it writes the next pre-encoded request as soon
/// as the previous response is complete, like a device waiting for its answer. Requests completed
/// inside the measuring window are counted and their latencies kept (in arrays reserved up front,
/// so recording costs no allocation). Time before the window is warm-up.
struct HTTPLoadGenerator: Sendable {
    var host = "127.0.0.1"
    var port: Int
    var connections: Int
    /// Complete request bytes, head and body; connection `c` starts at `c * count / connections` and cycles.
    var requests: [ByteBuffer]
    var warmUp: Double
    var duration: Double
    /// Where connections live. Sharing the server's group keeps thread count at the core count.
    var group: any EventLoopGroup

    struct Result: Sendable {
        var completed: Int
        var duration: Double
        var errors: Int
        var firstError: String?
        /// Nanoseconds, sorted.
        var latencies: [UInt64]
        /// Mean size of a response on the wire, head included (over warm-up and window).
        var meanResponseBytes: Double
        /// CPU used during the window, by this process (server and generator) and by others.
        var cpu = CPUUsage()

        /// Microseconds of this process's CPU per completed request, server and load generator together.
        var cpuMicrosecondsPerRequest: Double { cpu.process * 1e6 / Double(max(1, completed)) }

        var perSecond: Double { Double(completed) / duration }
        func latencyMs(_ quantile: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * quantile).rounded(.up)) - 1)
            return Double(latencies[max(0, index)]) / 1e6
        }
    }

    func run() async throws -> Result {
        let now = NIODeadline.now().uptimeNanoseconds
        let start = now + UInt64(warmUp * 1e9)
        let end = start + UInt64(duration * 1e9)
        let expected = Int(duration * 60_000) / max(1, connections) + 1024

        var futures: [EventLoopFuture<ConnectionResult>] = []
        for index in 0..<connections {
            let loop = group.next()
            let promise = loop.makePromise(of: ConnectionResult.self)
            let requests = self.requests
            let first = index * requests.count / connections
            let bootstrap = ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = LoadConnection(
                            requests: requests, next: first, windowStart: start, windowEnd: end,
                            reserve: expected, done: promise)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
            bootstrap.connect(host: host, port: port).whenFailure { promise.fail($0) }
            futures.append(promise.futureResult)
        }

        // Samples CPU time at the window's edges, from a task of its own.
        let cpuWatch = Task { () -> CPUUsage in
            let now = NIODeadline.now().uptimeNanoseconds
            try await Task.sleep(nanoseconds: start > now ? start - now : 0)
            let first = CPUSample.now()
            let later = NIODeadline.now().uptimeNanoseconds
            try await Task.sleep(nanoseconds: end > later ? end - later : 0)
            return CPUUsage(from: first, to: CPUSample.now())
        }

        var total = Result(completed: 0, duration: duration, errors: 0, firstError: nil, latencies: [], meanResponseBytes: 0)
        var bytes = 0
        var responses = 0
        total.latencies.reserveCapacity(expected * connections)
        for future in futures {
            let one = try await future.get()
            total.completed += one.latencies.count
            total.errors += one.errors
            total.firstError = total.firstError ?? one.firstError
            total.latencies.append(contentsOf: one.latencies)
            bytes += one.bytes
            responses += one.responses
        }
        total.meanResponseBytes = Double(bytes) / Double(max(1, responses))
        total.cpu = (try? await cpuWatch.value) ?? CPUUsage()
        total.latencies.sort()
        return total
    }
}

struct ConnectionResult: Sendable {
    var latencies: [UInt64]
    var errors: Int
    var firstError: String?
    var bytes: Int
    var responses: Int
}

/// One keep-alive connection of the generator. Lives on its channel's event loop only.
final class LoadConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let requests: [ByteBuffer]
    private var next: Int
    private let windowStart: UInt64
    private let windowEnd: UInt64
    private let done: EventLoopPromise<ConnectionResult>
    private var framer = HTTPResponseFramer()
    private var sentAt: UInt64 = 0
    private var latencies: [UInt64]
    private var errors = 0
    private var firstError: String?
    private var finished = false
    private var bytes = 0
    private var responses = 0

    init(requests: [ByteBuffer], next: Int, windowStart: UInt64, windowEnd: UInt64, reserve: Int, done: EventLoopPromise<ConnectionResult>) {
        self.requests = requests
        self.next = next % requests.count
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.done = done
        self.latencies = []
        self.latencies.reserveCapacity(reserve)
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        bytes += incoming.readableBytes
        framer.append(&incoming)
        do {
            while let status = try framer.nextResponse() {
                let now = NIODeadline.now().uptimeNanoseconds
                responses += 1
                if status >= 300 {
                    errors += 1
                    if firstError == nil { firstError = "HTTP \(status): \(framer.lastErrorBody)" }
                }
                if now >= windowEnd {
                    finish(context: context)
                    return
                }
                if now >= windowStart, status < 300 { latencies.append(now &- sentAt) }
                send(context: context)
            }
        } catch {
            errors += 1
            firstError = firstError ?? "\(error)"
            finish(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !finished {
            errors += 1
            firstError = firstError ?? "server closed the connection"
            finish(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        errors += 1
        firstError = firstError ?? "\(error)"
        finish(context: context)
    }

    private func send(context: ChannelHandlerContext) {
        let request = requests[next]
        next += 1
        if next == requests.count { next = 0 }
        sentAt = NIODeadline.now().uptimeNanoseconds
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
    }

    private func finish(context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        done.succeed(ConnectionResult(
            latencies: latencies, errors: errors, firstError: firstError, bytes: bytes, responses: responses))
        context.close(promise: nil)
    }
}
