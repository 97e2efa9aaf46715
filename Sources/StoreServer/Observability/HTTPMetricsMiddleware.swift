import Hummingbird

/// Counts every answered request and its latency by route template, method and status.
struct HTTPMetricsMiddleware: RouterMiddleware {
    typealias Context = StoreRequestContext
    let metrics: StoreMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(route: context.endpointPath ?? "NotFound", method: request.method.rawValue,
                                  status: Int(response.status.code), duration: ContinuousClock.now - start)
            return response
        } catch {
            metrics.recordRequest(route: context.endpointPath ?? "NotFound", method: request.method.rawValue,
                                  status: 500, duration: ContinuousClock.now - start)
            throw error
        }
    }
}
