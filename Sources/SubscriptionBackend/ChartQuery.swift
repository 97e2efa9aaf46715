import Foundation

/// What a chart is asked for (`GET /v1/charts/{name}?from=&to=&resolution=&…`): its name, the
/// days it spans, its resolution, and the filters RevenueCat's Charts API has (app, environment,
/// product, country, store). Parsed here so the API and the dashboard refuse the same input the
/// same way.
struct ChartQuery: Sendable, Equatable {
    var name: ChartName
    /// Day numbers (days since 1970-01-01, UTC); nil: the default range ending today.
    var fromDay: Int64?
    var toDay: Int64?
    var resolution: ChartResolution
    var filters: ChartFilters
    /// `csv` for a download; JSON otherwise.
    var csv: Bool

    /// The most periods one chart answers with.
    static let maxPeriods = 1_000
    static let parameters: Set<String> = ["from", "to", "resolution", "app", "environment", "product", "country", "store", "format"]

    /// Reads the query's fields (`FormEncoding.decode`); a repeated filter or a comma-separated
    /// list both give several values.
    static func parse(name: String, fields: [(String, String)]) throws(ChartQueryError) -> ChartQuery {
        guard let chart = ChartName(rawValue: name) else { throw .unknownChart(name) }
        var query = ChartQuery(name: chart, resolution: .day, filters: ChartFilters(), csv: false)
        var seen: Set<String> = []
        for (key, value) in fields {
            guard parameters.contains(key) else { throw .invalid("unknown parameter \(key): the parameters are \(parameters.sorted().joined(separator: ", "))") }
            // A form sends its empty fields: an empty value means the parameter's default.
            // Lists are comma-separated; spaces and tabs around an item and empty items are
            // dropped, as openapi.json's patterns say.
            let blank = CharacterSet(charactersIn: " \t")
            if value.isEmpty { continue }
            let values = value.split(separator: ",").map { String($0).trimmingCharacters(in: blank) }.filter { !$0.isEmpty }
            switch key {
            case "from", "to", "resolution", "format":
                guard !seen.contains(key) else { throw .invalid("\(key) is given twice") }
                seen.insert(key)
                if key == "resolution" {
                    guard let resolution = ChartResolution(rawValue: value) else {
                        throw .invalid("resolution must be one of \(ChartResolution.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    query.resolution = resolution
                } else if key == "format" {
                    guard value == "csv" || value == "json" else { throw .invalid("format must be json or csv") }
                    query.csv = value == "csv"
                } else {
                    guard let day = ChartPeriods.parseDate(value) else {
                        // 2026-11-31 has the shape of a date (openapi.json's pattern) but is no day.
                        if value.wholeMatch(of: /(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])/) != nil {
                            throw .unprocessable("\(key) \(value) is no calendar day")
                        }
                        throw .invalid("\(key) must be a date YYYY-MM-DD (UTC), 1970 or later")
                    }
                    if key == "from" { query.fromDay = day } else { query.toDay = day }
                }
            case "environment":
                for v in values where !["Production", "Sandbox"].contains(v) { throw .invalid("environment must be Production or Sandbox, not \(v)") }
                query.filters.environment += values
            case "store":
                for v in values where !ChartFilters.stores.contains(v) {
                    throw .invalid("store must be one of \(ChartFilters.stores.sorted().joined(separator: ", "))")
                }
                query.filters.store += values
            case "country":
                for v in values where !(v.count == 3 && v.allSatisfy { $0.isASCII && $0.isLetter }) {
                    throw .invalid("country is an App Store storefront: ISO 3166-1 alpha-3, like USA")
                }
                query.filters.country += values.map { $0.uppercased() }
            case "app": query.filters.app += values
            default: query.filters.product += values
            }
        }
        if let from = query.fromDay, let to = query.toDay, from > to { throw .unprocessable("from is after to") }
        return query
    }
}

/// The charts' filters; an empty list admits everything.
public struct ChartFilters: Codable, Sendable, Equatable {
    /// Bundle IDs.
    public var app: [String] = []
    /// `Production`, `Sandbox`.
    public var environment: [String] = []
    /// Product IDs.
    public var product: [String] = []
    /// Apple's storefronts (ISO 3166-1 alpha-3).
    public var country: [String] = []
    /// RevenueCat's store names; every purchase here is `app_store`.
    public var store: [String] = []

    /// RevenueCat's store names, accepted so a query written for it runs; only `app_store` has data here.
    static let stores: Set<String> = ["app_store", "mac_app_store", "play_store", "amazon", "stripe", "rc_billing", "paddle", "roku", "promotional"]

    /// Whether a purchase of the App Store counts.
    var admitsAppStore: Bool { store.isEmpty || store.contains("app_store") }
    /// Whether any filter narrows the customers to those with a matching purchase.
    var narrowsCustomers: Bool { !(app.isEmpty && environment.isEmpty && product.isEmpty && country.isEmpty && store.isEmpty) }

    func admits(_ t: TransactionRow) -> Bool {
        admitsAppStore && (app.isEmpty || app.contains(t.bundleId)) && (environment.isEmpty || environment.contains(t.environment))
            && (product.isEmpty || product.contains(t.productId))
            && (country.isEmpty || t.storefront.map { country.contains($0.uppercased()) } == true)
    }
}

/// Why a chart query is refused: no such chart (404), a parameter that is not valid (400), or
/// a well-formed range the chart cannot draw (422: `from` after `to` or after today, too many periods).
enum ChartQueryError: Error, Equatable {
    case unknownChart(String)
    case invalid(String)
    case unprocessable(String)
}
