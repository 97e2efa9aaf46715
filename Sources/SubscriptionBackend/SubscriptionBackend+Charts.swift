/// The charts (`GET /v1/charts/{name}` and the dashboard's `/charts`), computed from the
/// backend's own tables at the store's clock as the backend knows it (`ChartRules`).
extension SubscriptionBackend {
    /// The chart `query` asks for; `ChartQueryError.unprocessable` when its range holds more than
    /// `ChartQuery.maxPeriods` periods.
    public func chart(_ name: String, fields: [(String, String)]) async throws -> Chart {
        try await chart(try ChartQuery.parse(name: name, fields: fields))
    }

    /// Only the read a chart makes (every row the filters admit), returning how many rows: the
    /// limit `openstore-bench` prints beside a chart's time.
    public func chartRead() async throws -> Int {
        let rows = try await database.chartRows(ChartFilters())
        return rows.transactions.count + rows.renewals.count + rows.owners.count + rows.customers.count + rows.refundRequests.count
    }

    func chart(_ query: ChartQuery) async throws -> Chart {
        let now = try await storeNowMs()
        let today = ChartPeriods.dayNumber(now)
        let to = min(query.toDay ?? today, today)
        let from = query.fromDay ?? ChartPeriods.defaultFrom(toDay: to, resolution: query.resolution)
        guard from <= to else { throw ChartQueryError.unprocessable("from is after today on the store's clock (\(ChartPeriods.dateText(today)))") }
        let limit = query.name.isCohort ? ChartCohortRules.maxColumns : ChartQuery.maxPeriods
        guard let periods = ChartPeriods.periods(fromDay: from, toDay: to, resolution: query.resolution, asOfMs: now, limit: limit) else {
            throw ChartQueryError.unprocessable("the range holds more than \(limit) \(query.resolution.rawValue)s\(query.name.isCohort ? " (a cohort chart's most)" : ""): choose a shorter range or a coarser resolution")
        }
        // A cohort's later columns run past `to`, up to the period holding the clock.
        let extended = query.name.isCohort
            ? ChartPeriods.periods(fromDay: from, toDay: today, resolution: query.resolution, asOfMs: now,
                                   limit: periods.count + ChartCohortRules.maxColumns, truncating: true) ?? periods
            : periods
        let rows = try await database.chartRows(query.filters)
        let filters = query.filters
        let world = ChartRules.World(ChartRules.Input(
            transactions: rows.transactions, admits: { filters.admits($0) }, renewals: rows.renewals, owners: rows.owners,
            customers: rows.customers.map { (appUserId: $0.0, firstSeenMs: $0.1, firstSeenStoreMs: $0.2) },
            firstPurchases: rows.firstPurchases,
            refundRequests: rows.refundRequests.map { (transaction: $0.0, requestedMs: $0.1) },
            smallBusinessApps: Set(configuration.apps.filter(\.smallBusinessProgram).map(\.bundleId)),
            asOfMs: now, narrowsCustomers: query.filters.narrowsCustomers))
        let computed = ChartRules.compute(query.name, periods: periods, extended: extended, world: world)
        return Chart(
            name: query.name.rawValue, title: query.name.title, description: query.name.summary, asOf: now,
            resolution: query.resolution.rawValue, from: ChartPeriods.dateText(from), to: ChartPeriods.dateText(to),
            filters: query.filters, cohort: query.name.isCohort, series: computed.series,
            points: zip(periods, computed.rows).map { p, values in
                Chart.Point(period: p.label, startMs: p.startMs, endMs: p.endMs, incomplete: p.incomplete, values: values)
            })
    }
}
