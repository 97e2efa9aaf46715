import Hummingbird
import NIOCore
import StoreEngine

/// `GET /metrics`: the Prometheus text exposition format (version 0.0.4).
struct MetricsRoute {
    let store: AppStore
    let metrics: StoreMetrics

    func register(on router: Router<StoreRequestContext>) {
        router.get("metrics") { _, _ in
            let text = try await metrics.render(store: store)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
