import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
@testable import SubscriptionBackend

/// The charts on real signed data in a real SQLite file, each number worked out by hand from the
/// definitions in docs/backend.md, Charts: four customers over April–June 2030 (an upgrade, a
/// churn and a resubscription, a converted trial whose paid period was refunded, one-time
/// purchases), judged on 15 June. The same world through a live store is
/// compat/test_backend_charts.py.
@Suite struct ChartTests {
    static let day = SignedDataKit.day

    /// 00:00 UTC on a day of 2030 (2031 for month 13).
    static func at(_ month: Int64, _ day: Int64) -> Int64 {
        month > 12 ? ChartPeriods.days(year: 2031, month: month - 12, day: day) * Self.day
            : ChartPeriods.days(year: 2030, month: month, day: day) * Self.day
    }

    /// Posts each signing in the order of its signed date, as an app and the store would deliver them.
    static func load(_ kit: SignedDataKit, into backend: SubscriptionBackend) async throws {
        func t(_ id: String, _ original: String, product: String = "plus.monthly", _ purchase: Int64, _ expires: Int64?,
               price: Int = 4990, type: String = "Auto-Renewable Subscription", reason: String = "PURCHASE", trial: Bool = false,
               revoked: Int64? = nil, signed: Int64? = nil) -> [String: Any] {
            var row = kit.transaction(id: id, original: original, product: product, purchase: purchase, expires: expires, type: type,
                                      signed: signed, revoked: revoked, reason: reason, trial: trial)
            if !trial { row["price"] = price }
            return row
        }
        let posts: [(String, [String: Any])] = [
            // alice: monthly from 5 April, renewed on 5 May, upgraded to yearly on 20 May.
            ("alice", t("A1", "A1", at(4, 5), at(5, 5))),
            ("bob", t("B1", "B1", at(4, 10), at(5, 10))),          // bob: monthly from 10 April, lapses 10 May…
            ("carol", t("C1", "C1", at(4, 20), at(4, 27), trial: true)),  // carol: a week's free trial…
            ("carol", t("C2", "C1", at(4, 27), at(5, 27), reason: "RENEWAL")),  // …converted on 27 April,
            ("carol", t("C2", "C1", at(4, 27), at(5, 27), reason: "RENEWAL", revoked: at(5, 2), signed: at(5, 2))),  // refunded 2 May
            ("alice", t("A2", "A1", at(5, 5), at(6, 5), reason: "RENEWAL")),
            ("dave", t("D1", "D1", product: "coins", at(5, 8), nil, price: 990, type: "Consumable")),
            ("dave", t("D2", "D2", product: "lifetime", at(5, 9), nil, price: 9990, type: "Non-Consumable")),
            ("dave", t("D2", "D2", product: "lifetime", at(5, 9), nil, price: 9990, type: "Non-Consumable", revoked: at(5, 12), signed: at(5, 12))),
            ("alice", t("Y1", "A1", product: "plus.yearly", at(5, 20), at(17, 20), price: 39990, reason: "UPGRADE")),
            // …and comes back on 3 June (same subscription): the last signing, 15 June, is the clock.
            ("bob", t("B2", "B1", at(6, 3), at(7, 3), signed: at(6, 15))),
        ]
        for (user, row) in posts {
            _ = try await backend.receiveTransaction(appUserId: user, signedTransaction: try kit.sign(row))
        }
    }

    static let months = [("from", "2030-04-01"), ("to", "2030-06-30"), ("resolution", "month")]

    @Test(arguments: BackendTestEngine.all) func everyChartEqualsTheHandCount(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            try await Self.load(kit, into: test.backend)
            // erin: the app sets her name on 15 June (the store's clock), before any purchase.
            _ = try await test.backend.setAttributes(appUserId: "erin", ["$displayName": "Erin"])
            func chart(_ name: ChartName, _ extra: [(String, String)] = []) async throws -> Chart {
                try await test.backend.chart(name.rawValue, fields: Self.months + extra)
            }
            func values(_ c: Chart, _ id: String) -> [Double?] { c.points.map { c.value(id, at: $0.period) } }
            func near(_ a: [Double?], _ b: [Double?]) -> Bool {
                a.count == b.count && zip(a, b).allSatisfy { x, y in x == nil ? y == nil : y != nil && abs(x! - y!) < 1e-6 }
            }

            let mrr = try await chart(.mrr)
            #expect(mrr.points.map(\.period) == ["2030-04", "2030-05", "2030-06"] && mrr.to == "2030-06-15")
            #expect(mrr.points.map(\.incomplete) == [false, false, true] && mrr.asOf == Self.at(6, 15))
            // April's end: A1, B1, C2 at 4.99; May's: alice's yearly 39.99 ÷ 12; 15 June: that and B2.
            #expect(near(values(mrr, "mrr.USD"), [14.97, 3.3325, 8.3225]))
            #expect(near(values(try await chart(.arr), "arr.USD"), [179.64, 39.99, 99.87]))

            let movement = try await chart(.mrrMovement)
            #expect(near(values(movement, "new.USD"), [14.97, 0, 0]))
            #expect(near(values(movement, "resubscription.USD"), [0, 0, 4.99]), "bob's return")
            #expect(near(values(movement, "expansion.USD"), [0, 0, 0]))
            #expect(near(values(movement, "contraction.USD"), [0, -(4.99 - 3.3325), 0]), "monthly 4.99 to yearly 3.3325 a month")
            #expect(near(values(movement, "churned.USD"), [0, -9.98, 0]), "bob lapsed, carol refunded")
            #expect(near(values(movement, "net.USD"), [14.97, 3.3325 - 14.97, 8.3225 - 3.3325]), "net is MRR's change")

            #expect(values(try await chart(.actives), "actives") == [3, 1, 2])
            let activesMovement = try await chart(.activesMovement)
            let movedExpected: [[Double?]] = [[3, 0, 0, 3], [0, 0, -2, -2], [0, 1, 0, 1]]
            #expect(activesMovement.points.map(\.values) == movedExpected)
            let trials = try await chart(.trials)
            #expect(values(trials, "active") == [0, 0, 0] && values(trials, "started") == [1, 0, 0])
            // Customers: alice, bob, carol first bought in April; dave in May; erin was first seen in June.
            #expect(values(try await chart(.customersNew), "customers") == [3, 1, 1])
            // The overview counts her too: of the last 28 days, only erin is new.
            let overview = try await test.backend.overview(environment: nil)
            #expect(overview.newCustomers == 1 && overview.customers == 5)

            let revenue = try await chart(.revenue)
            // April: A1, B1 (C2 refunded, C1 free); May: A2, Y1, the coins (the lifetime refunded); June: B2.
            #expect(near(values(revenue, "revenue.USD"), [9.98, 4.99 + 39.99 + 0.99, 4.99]))
            #expect(near(values(revenue, "proceeds.USD"), [6.986, 3.493 + 27.993 + 0.693, 3.493]), "70 % in the first year")
            #expect(values(revenue, "transactions") == [2, 3, 1])

            let churn = try await chart(.churn)
            let churnExpected: [[Double?]] = [[0, 0, nil], [3, 2, 2.0 / 3], [1, 0, 0]]
            #expect(churn.points.map(\.values) == churnExpected)
            let refunds = try await chart(.refundRate)
            let refundsExpected: [[Double?]] = [[3, 1, 1.0 / 3, 0], [4, 1, 0.25, 0], [1, 0, 0, 0]]
            #expect(refunds.points.map(\.values) == refundsExpected)
            let other = try await chart(.nonSubscriptionPurchases)
            let otherExpected: [[Double?]] = [[0, 0, 0], [2, 1, 0.99], [0, 0, 0]]
            #expect(other.points.map(\.values) == otherExpected)

            // Cohorts of April (alice, bob, carol), May (dave) and June (erin, who has bought nothing).
            let initial = try await chart(.initialConversion)
            let initialExpected: [[Double?]] = [[3, 3, 1], [1, 1, 1], [1, 0, 0]]
            #expect(initial.points.map(\.values) == initialExpected)
            let paying = try await chart(.conversionToPaying)
            let payingExpected: [[Double?]] = [[3, 2, 2.0 / 3], [1, 1, 1], [1, 0, 0]]
            #expect(paying.points.map(\.values) == payingExpected, "carol's one payment was refunded")
            let trialConversion = try await chart(.trialConversion)
            let trialExpected: [Double?] = [3, 1, 1, 0, 0, 1]
            #expect(trialConversion.points[0].values == trialExpected)
            let retention = try await chart(.subscriptionRetention)
            // April's cohort: A1, B1, C2; at May's end only alice; on 15 June alice and bob.
            let aprilRetained: [Double?] = [3, 1, 1.0 / 3, 2.0 / 3], emptyCohort: [Double?] = [0, nil, nil, nil]
            #expect(retention.points[0].values == aprilRetained)
            #expect(retention.points[1].values == emptyCohort && retention.points[2].values == emptyCohort)
            let ltv = try await chart(.ltvPerCustomer)
            let aprilLTV: [Double?] = [3, 9.98 / 3, 54.96 / 3, 59.95 / 3]
            #expect(near(ltv.points[0].values, aprilLTV))
            let mayLTV: [Double?] = [1, 0.99, 0.99, nil]
            #expect(near(ltv.points[1].values, mayLTV) && near(ltv.points[2].values, [1, 0, nil, nil]))

            // Filters: the yearly plan alone; nothing in Production, France or the Play Store.
            let yearly = try await chart(.mrr, [("product", "plus.yearly")])
            #expect(near(values(yearly, "mrr.USD"), [0, 3.3325, 3.3325]))
            #expect(values(try await chart(.customersNew, [("product", "plus.yearly")]), "customers") == [1, 0, 0],
                    "alice counts from her first purchase, not from her first yearly one")
            // The monthly plan alone: alice's monthly period ends at the upgrade (20 May), not at
            // its own expiry; the two products add up to the whole.
            let monthly = try await chart(.mrr, [("product", "plus.monthly")])
            #expect(near(values(monthly, "mrr.USD"), [14.97, 0, 4.99]))
            #expect(values(try await chart(.actives, [("product", "plus.monthly")]), "actives") == [3, 0, 1])
            #expect(values(try await chart(.actives, [("product", "plus.yearly")]), "actives") == [0, 1, 1])
            // A cohort chart ending in April still fills April's later columns up to the clock.
            let april = try await test.backend.chart("subscription_retention", fields: [("from", "2030-04-01"), ("to", "2030-04-30"),
                                                                                       ("resolution", "month")])
            #expect(april.points.count == 1 && april.points[0].values == aprilRetained)
            for filter in [("environment", "Production"), ("country", "FRA"), ("store", "play_store")] {
                let empty = try await chart(.actives, [filter])
                #expect(values(empty, "actives") == [0, 0, 0], "\(filter)")
                #expect(values(try await chart(.customersNew, [filter]), "customers") == [0, 0, 0], "\(filter)")
            }
            #expect(values(try await chart(.actives, [("country", "usa"), ("store", "app_store")]), "actives") == [3, 1, 2])
        }
    }

    /// A database made before the storefront was kept gets the column, filled from each stored
    /// transaction's signed payload, so the country filter sees the old purchases.
    @Test func anOlderDatabaseGetsItsStorefrontsFromTheStoredSignatures() async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER]) { test in
            try await Self.load(kit, into: test.backend)
            let sql = test.backend.database.writeSQL
            try await sql.raw("ALTER TABLE bk_transactions DROP COLUMN storefront").run()
            try await BackendSchema.create(on: sql)
            let chart = try await test.backend.chart("actives", fields: Self.months + [("country", "USA")])
            #expect(chart.points.map { $0.values[0] } == [3, 1, 2])
        }
    }

    /// Two instances starting together on one PostgreSQL database made before the storefront
    /// was kept: the schema change is serialized (no deadlock), made once, and filled.
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil)) func instancesStartingTogetherAddTheColumnOnce() async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: .postgres) { test in
            try await Self.load(kit, into: test.backend)
            try await test.backend.database.writeSQL.raw("ALTER TABLE bk_transactions DROP COLUMN storefront").run()
            let url = try #require(BackendTestEngine.postgresURL), schema = try #require(test.schema)
            async let first = BackendDatabase.open(url: url, schema: schema)
            async let second = BackendDatabase.open(url: url, schema: schema)
            let (a, b) = try await (first, second)
            await a.close()
            await b.close()
            let chart = try await test.backend.chart("actives", fields: Self.months + [("country", "USA")])
            #expect(chart.points.map { $0.values[0] } == [3, 1, 2])
        }
    }

    /// A price rise inside a subscription is expansion: yearly (39.99 ÷ 12 a month) to monthly
    /// 4.99 on 10 May, then a renewal at the same price (no movement).
    @Test func aRiseInTheMonthlyAmountIsExpansion() throws {
        func row(_ id: String, _ purchase: Int64, _ expires: Int64, _ price: Int64) -> TransactionRow {
            TransactionRow(environment: "Sandbox", transactionId: id, originalTransactionId: "X1", bundleId: "b", productId: "p",
                           groupId: "g", type: EventRules.autoRenewable, purchaseMs: purchase, originalPurchaseMs: purchase,
                           expiresMs: expires, revocationMs: nil, revocationType: nil, price: price, currency: "EUR",
                           ownership: "PURCHASED", offerType: nil, offerDiscountType: nil, reason: nil, appAccountToken: nil,
                           isUpgraded: false, signedMs: purchase, jws: "")
        }
        let rows = [row("X1", Self.at(4, 10), Self.at(16, 10), 39990), row("X2", Self.at(5, 10), Self.at(6, 10), 4990),
                    row("X3", Self.at(6, 10), Self.at(7, 10), 4990)]
        let world = ChartRules.World(ChartRules.Input(
            transactions: rows, admits: { _ in true }, renewals: [], owners: ["Sandbox|X1": "x"],
            customers: [("x", Self.at(4, 10), Self.at(4, 10))], firstPurchases: ["x": Self.at(4, 10)],
            refundRequests: [], smallBusinessApps: [], asOfMs: Self.at(6, 20), narrowsCustomers: false))
        let periods = try #require(ChartPeriods.periods(fromDay: Self.at(4, 1) / Self.day, toDay: Self.at(6, 30) / Self.day,
                                                        resolution: .month, asOfMs: Self.at(6, 20), limit: 10))
        let (series, rows2) = ChartRules.compute(.mrrMovement, periods: periods, extended: periods, world: world)
        let expansion = try #require(series.firstIndex { $0.id == "expansion.EUR" })
        let new = try #require(series.firstIndex { $0.id == "new.EUR" })
        #expect(rows2.map { $0[new] } == [3.3325, 0, 0])
        #expect(rows2.map { $0[expansion] } == [0, 1.6575, 0], "4.99 less 3.3325")
    }

    @Test func periodsAreUTCCalendarOnes() throws {
        let sunday = try #require(ChartPeriods.parseDate("2026-11-29"))
        #expect(ChartPeriods.dateText(ChartPeriods.start(of: sunday, .week)) == "2026-11-23", "ISO weeks begin on Monday")
        #expect(ChartPeriods.label(sunday, .quarter) == "2026-Q4" && ChartPeriods.label(sunday, .month) == "2026-11")
        #expect(ChartPeriods.parseDate("2028-02-29") != nil && ChartPeriods.parseDate("2027-02-29") == nil)
        #expect(ChartPeriods.parseDate("1969-12-31") == nil && ChartPeriods.parseDate("2026-1-01") == nil)
        let from = try #require(ChartPeriods.parseDate("2026-01-15")), to = try #require(ChartPeriods.parseDate("2026-03-10"))
        let asOf = (to + 1) * ChartPeriods.dayMs + 5
        let periods = try #require(ChartPeriods.periods(fromDay: from, toDay: to, resolution: .month, asOfMs: asOf, limit: 10))
        #expect(periods.map(\.label) == ["2026-01", "2026-02", "2026-03"])
        #expect(periods.map(\.incomplete) == [false, false, true] && periods[2].atMs == asOf)
        #expect(periods[1].endMs - periods[1].startMs == 28 * ChartPeriods.dayMs)
        #expect(ChartPeriods.periods(fromDay: from, toDay: to, resolution: .day, asOfMs: asOf, limit: 10) == nil, "over the limit")
        #expect(ChartPeriods.dateText(ChartPeriods.defaultFrom(toDay: to, resolution: .month)) == "2025-04-01")
    }

    @Test func badQueriesAreRefusedByName() {
        func refusal(_ fields: [(String, String)], chart: String = "mrr") -> String? {
            do {
                _ = try ChartQuery.parse(name: chart, fields: fields)
                return nil
            } catch {
                if case .invalid(let message) = error { return message }
                if case .unprocessable(let message) = error { return "422: " + message }
                return "unknown chart"
            }
        }
        #expect(refusal([], chart: "nope") == "unknown chart")
        #expect(refusal([("limit", "5")])?.contains("unknown parameter limit") == true)
        #expect(refusal([("resolution", "hour")])?.contains("resolution") == true)
        #expect(refusal([("from", "2026-13-01")])?.contains("from") == true)
        #expect(refusal([("from", "2026-03-01"), ("to", "2026-02-01")]) == "422: from is after to")
        #expect(refusal([("environment", "Staging")])?.contains("environment") == true)
        #expect(refusal([("store", "itunes")])?.contains("store") == true)
        #expect(refusal([("country", "US")])?.contains("alpha-3") == true)
        #expect(refusal([("to", "2026-01-01"), ("to", "2026-01-02")])?.contains("twice") == true)
        // Empty is the default (a form's empty field); a tab is no date (openapi.json's pattern).
        #expect(refusal([("to", "\t")])?.contains("to must be a date") == true)
        #expect(refusal([("to", "2026-11-31")]) == "422: to 2026-11-31 is no calendar day")
        #expect(refusal([("environment", "\t Production, \t,")]) == nil && refusal([("to", "")]) == nil)
        let query = try? ChartQuery.parse(name: "revenue", fields: [("product", "a,b"), ("product", "c"), ("from", ""), ("country", "fra")])
        #expect(query?.filters.product == ["a", "b", "c"] && query?.fromDay == nil && query?.filters.country == ["FRA"])
    }

    @Test func theAPIAnswersJSONAndCSVAndTheDashboardDrawsIt() async throws {
        let kit = try SignedDataKit()
        try await withServedBackend(kit) { test, base, http in
            try await Self.load(kit, into: test.backend)
            func get(_ path: String) async throws -> (Int, String, String?) {
                let response = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(30))
                let body = String(buffer: try await response.body.collect(upTo: 4 << 20))
                return (Int(response.status.code), body, response.headers.first(name: "Content-Type"))
            }
            let (listed, list, _) = try await get("/v1/charts")
            #expect(listed == 200 && ChartName.allCases.allSatisfy { list.contains("\"\($0.rawValue)\"") })
            let query = "?from=2030-04-01&to=2030-06-30&resolution=month"
            let (status, json, _) = try await get("/v1/charts/mrr" + query)
            let decoded = try JSONDecoder().decode(Chart.self, from: Data(json.utf8))
            let direct = try await test.backend.chart("mrr", fields: Self.months)
            #expect(status == 200 && decoded == direct)
            let (_, csv, type) = try await get("/v1/charts/mrr" + query + "&format=csv")
            #expect(type?.hasPrefix("text/csv") == true)
            #expect(csv == "period,start,incomplete,mrr.USD\r\n2030-04,2030-04-01,false,14.97\r\n2030-05,2030-05-01,false,3.3325\r\n2030-06,2030-06-01,true,8.3225\r\n")
            let (pageCSVStatus, pageCSV, _) = try await get("/charts/mrr/csv" + query)
            #expect(pageCSVStatus == 200 && pageCSV == csv)
            #expect(try await get("/v1/charts/nope").0 == 404)
            let (bad, badBody, _) = try await get("/v1/charts/mrr?resolution=hour")
            #expect(bad == 400 && badBody.contains("invalidParameter"))
            // The page: the SVG with its summary, and every number in the table.
            let (pageStatus, page, _) = try await get("/charts/mrr_movement" + query)
            #expect(pageStatus == 200 && page.contains("role=\"img\"") && page.contains("data-chart=\"mrr_movement\""))
            #expect(page.contains(">-9.98<") && page.contains(">14.97<") && page.contains("2030-06 (so far)"))
            let missing = try await get("/charts/nope").0
            // A refused query keeps what was sent in the form, escaped, to be corrected.
            let (invalid, refusedPage, _) = try await get("/charts/mrr?from=x&country=US&product=%3Cb%3Ex")
            #expect(missing == 404 && invalid == 400 && refusedPage.contains("from must be a date"))
            #expect(refusedPage.contains("value=\"US\"") && refusedPage.contains("value=\"&lt;b&gt;x\"") && !refusedPage.contains("<b>x"))
            let (_, index, _) = try await get("/charts")
            #expect(ChartName.allCases.allSatisfy { index.contains("href=\"/charts/\($0.rawValue)\"") })
        }
    }
}
