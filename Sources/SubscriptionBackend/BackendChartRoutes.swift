import Foundation
import Hummingbird
import NIOCore
import StoreShared

/// The Charts API: `GET /v1/charts` lists the charts, `GET /v1/charts/{name}` answers one as
/// JSON (`?format=csv` as CSV), with RevenueCat's parameters (`from`, `to`, `resolution`) and
/// filters (`app`, `environment`, `product`, `country`, `store`). No rules here: each maps onto
/// `SubscriptionBackend+Charts`.
enum BackendChartRoutes {
    static func register(on v1: RouterGroup<BasicRequestContext>, backend: SubscriptionBackend) {
        v1.get("/charts") { _, _ in
            struct Entry: Encodable { var name: String; var title: String; var description: String; var cohort: Bool }
            return try BackendHTTPServer.encoded(["charts": ChartName.allCases.map {
                Entry(name: $0.rawValue, title: $0.title, description: $0.summary, cohort: $0.isCohort)
            }])
        }
        v1.get("/charts/:name") { request, context in
            try await answer(backend, name: context.parameters.get("name") ?? "", query: request.uri.query)
        }
    }

    /// The chart as JSON or CSV, or the error its query earns: 404 for a chart that does not
    /// exist, 400 naming the parameter that is wrong.
    static func answer(_ backend: SubscriptionBackend, name: String, query: String?, forceCSV: Bool = false) async throws -> Response {
        do {
            var parsed = try ChartQuery.parse(name: name, fields: FormEncoding.decode(query))
            if forceCSV { parsed.csv = true }
            let chart = try await backend.chart(parsed)
            guard parsed.csv else { return try BackendHTTPServer.encoded(chart) }
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                   .contentDisposition: "attachment; filename=\"\(chart.name).csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: chart.csv())))
        } catch let error as ChartQueryError {
            return failure(error)
        }
    }

    static func failure(_ error: ChartQueryError) -> Response {
        switch error {
        case .unknownChart(let name):
            return BackendHTTPServer.error(404, "chartNotFound",
                                           "no chart \(name): the charts are \(ChartName.allCases.map(\.rawValue).joined(separator: ", "))")
        case .invalid(let message):
            return BackendHTTPServer.error(400, "invalidParameter", message)
        case .unprocessable(let message):
            return BackendHTTPServer.error(422, "invalidRange", message)
        }
    }
}
