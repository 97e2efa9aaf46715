import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreShared
import Testing
@testable import SubscriptionBackend

/// Offerings and experiments (#34 §6): the paywall's configuration served per customer, and an
/// A/B test over 1,000 new customers whose split and per-variant figures are checked against a
/// count made here by hand from the purchases posted.
@Suite(.removesTemporaryFolders) struct OfferingsTests {
    static let t0 = SignedDataKit.start, day = SignedDataKit.day
    static let standard = Offering(id: "default", packages: [.init(id: "monthly", productId: "plus.monthly"),
                                                             .init(id: "annual", productId: "plus.yearly")],
                                   preselectedPackage: "annual", metadata: ["title": "Go Plus"])
    static let sale = Offering(id: "spring_sale", packages: [.init(id: "annual", productId: "plus.yearly")],
                               preselectedPackage: "annual", metadata: ["title": "40 % off the first year"])

    /// What customer `i` buys after seeing the paywall: an annual plan (every fourth, every
    /// fortieth refunded), a free trial (every tenth from 1), converted to paid (every twentieth from 1).
    static func purchases(_ kit: SignedDataKit, _ i: Int, at start: Int64) throws -> [String] {
        var out: [String] = []
        let id = 100_000 + i * 10
        if i % 4 == 0 {
            var t = kit.transaction(id: "\(id)", original: "\(id)", product: "plus.yearly", purchase: start, expires: start + 365 * day,
                                    revoked: i % 40 == 0 ? start + day : nil)
            t["price"] = 39_990
            t["signedDate"] = start + (i % 40 == 0 ? day : 0)
            out.append(try kit.sign(t))
        }
        if i % 10 == 1 {
            out.append(try kit.sign(kit.transaction(id: "\(id + 1)", original: "\(id + 1)", purchase: start, expires: start + 7 * day, trial: true)))
            if i % 20 == 1 {
                out.append(try kit.sign(kit.transaction(id: "\(id + 2)", original: "\(id + 1)", purchase: start + 7 * day,
                                                        expires: start + 37 * day, reason: "RENEWAL")))
            }
        }
        return out
    }

    /// The customer's variant, checked against the offering they were shown.
    static func variant(_ offerings: CustomerOfferings) throws -> String {
        let enrolled = try #require(offerings.experiment)
        #expect(offerings.current?.id == (enrolled.variant == "control" ? "default" : "spring_sale"))
        return enrolled.variant
    }

    @Test(arguments: BackendTestEngine.all) func anExperimentSplitsNewCustomersAndCountsEachVariant(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let clock = ManualWallClock(nowMs: Self.t0)
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock)) { test in
            let backend = test.backend, bundle = kit.bundleId
            _ = try await backend.saveOffering(Self.standard, bundleId: bundle)
            _ = try await backend.saveOffering(Self.sale, bundleId: bundle)
            #expect(try await backend.offerings(bundleId: bundle).current == "default", "the first offering saved is current")
            await #expect(throws: OfferingRefusal.self) {
                try await backend.saveOffering(Offering(id: "bad", packages: [.init(id: "a", productId: "p")], preselectedPackage: "z"), bundleId: bundle)
            }
            // A customer known before the experiment keeps the current offering.
            #expect(try await backend.customerOfferings(appUserId: "veteran", bundleId: nil).current?.id == "default")
            clock.advance(byMs: 1_000)
            let experiment = try await backend.startExperiment(id: "annual-sale", bundleId: bundle, control: "default", treatment: "spring_sale")
            await #expect(throws: OfferingRefusal.self) { try await backend.deleteOffering(id: "spring_sale", bundleId: bundle) }
            await #expect(throws: OfferingRefusal.self) {
                try await backend.startExperiment(id: "second", bundleId: bundle, control: "default", treatment: "spring_sale")
            }
            let veteran = try await backend.customerOfferings(appUserId: "veteran", bundleId: bundle)
            #expect(veteran.experiment == nil && veteran.current == Self.standard)

            // 1,000 new customers open the paywall; each sees their variant's offering, always the same.
            clock.advance(byMs: 1_000)
            var variants: [Int: String] = [:]
            try await withThrowingTaskGroup(of: (Int, CustomerOfferings).self) { group in
                for i in 0..<1_000 {
                    if i >= 16, let (index, offerings) = try await group.next() { variants[index] = try Self.variant(offerings) }
                    group.addTask { (i, try await backend.customerOfferings(appUserId: "c\(i)", bundleId: bundle)) }
                }
                for try await (index, offerings) in group { variants[index] = try Self.variant(offerings) }
            }
            let treated = variants.values.filter { $0 == "treatment" }.count
            #expect((450...550).contains(treated), "the split: \(treated) of 1,000 in treatment")
            let again = try await backend.customerOfferings(appUserId: "c7", bundleId: bundle)
            #expect(again.experiment?.variant == variants[7] && again.experiment?.enrolledAt == experiment.startMs + 1_000)

            // They buy; the app posts each purchase.
            let start = Self.t0 + 2 * Self.day
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<1_000 {
                    if i >= 16 { try await group.next() }
                    group.addTask {
                        for jws in try Self.purchases(kit, i, at: start) {
                            _ = try await backend.receiveTransaction(appUserId: "c\(i)", signedTransaction: jws)
                        }
                    }
                }
                try await group.waitForAll()
            }

            // The hand count.
            var expected: [String: (customers: Int, conversions: Int, trials: Int, trialConversions: Int, revenue: Int64)] =
                ["control": (0, 0, 0, 0, 0), "treatment": (0, 0, 0, 0, 0)]
            for i in 0..<1_000 {
                let v = variants[i]!
                expected[v]!.customers += 1
                let annual = i % 4 == 0, trial = i % 10 == 1, converted = i % 20 == 1
                if annual || converted { expected[v]!.conversions += 1 }
                if trial { expected[v]!.trials += 1 }
                if converted { expected[v]!.trialConversions += 1 }
                if annual && i % 40 != 0 { expected[v]!.revenue += 39_990 }
                if converted { expected[v]!.revenue += 4_990 }
            }
            let report = try #require(try await backend.experimentReport(id: "annual-sale"))
            #expect(report.variants.map(\.variant) == ["control", "treatment"])
            #expect(report.variants.map(\.offeringId) == ["default", "spring_sale"])
            for figures in report.variants {
                let hand = expected[figures.variant]!
                #expect(figures.customers == hand.customers && figures.conversions == hand.conversions)
                #expect(figures.trialStarts == hand.trials && figures.trialConversions == hand.trialConversions)
                #expect(figures.revenue == [CurrencyTotal(currency: "USD", milliunits: hand.revenue)])
                #expect(figures.realizedLtvPerCustomer == [CurrencyTotal(currency: "USD", milliunits: hand.revenue / Int64(hand.customers))])
                #expect(figures.conversionRate == Double(hand.conversions) / Double(hand.customers))
            }

            // Stopped: everyone sees the current offering again; the report stays; the offering may go.
            _ = try await backend.stopExperiment(id: "annual-sale")
            let after = try await backend.customerOfferings(appUserId: "c7", bundleId: bundle)
            #expect(after.experiment == nil && after.current?.id == "default")
            #expect(try await backend.experimentReport(id: "annual-sale")?.variants.map(\.customers).reduce(0, +) == 1_000)
            try await backend.deleteOffering(id: "spring_sale", bundleId: bundle)
            #expect(try await backend.offerings(bundleId: bundle).offerings.map(\.id) == ["default"])
        }
    }

    @Test func theRoutesAnswerAsDocumented() async throws {
        let kit = try SignedDataKit()
        try await withServedBackend(kit) { _, server, http in
            func call(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> (Int, [String: Any]) {
                var request = HTTPClientRequest(url: server + path)
                request.method = method
                if let body { request.body = .bytes(ByteBuffer(string: body)) }
                let response = try await http.execute(request, timeout: .seconds(30))
                let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
            }
            let app = "/v1/admin/apps/\(kit.bundleId)"
            let (saved, offering) = try await call(.PUT, app + "/offerings/default",
                                                   "{\"packages\": [{\"id\": \"annual\", \"productId\": \"plus.yearly\"}], \"metadata\": {\"title\": \"<b>Plus</b>\"}}")
            #expect(saved == 200 && offering["id"] as? String == "default" && offering["preselectedPackage"] is NSNull)
            let (bad, refusal) = try await call(.PUT, app + "/offerings/x", "{\"packages\": []}")
            #expect(bad == 400 && refusal["error"] as? String == "invalidOffering" && (refusal["message"] as? String)?.hasPrefix("$.packages") == true)
            let (twice, _) = try await call(.PUT, app + "/offerings/x",
                                            "{\"packages\": [{\"id\": \"a\", \"productId\": \"p\"}, {\"id\": \"a\", \"productId\": \"q\"}]}")
            #expect(twice == 422, "a package ID used twice: well formed, refused by meaning")
            #expect(try await call(.PUT, "/v1/admin/apps/com.other/offerings/x", "{\"packages\": [{\"id\": \"a\", \"productId\": \"p\"}]}").0 == 404)
            let (read, paywall) = try await call(.GET, "/v1/customers/ann/offerings")
            #expect(read == 200 && (paywall["current"] as? [String: Any])?["id"] as? String == "default" && paywall["experiment"] is NSNull)
            #expect(try await call(.PUT, app + "/current-offering", "{\"offeringId\": \"nope\"}").0 == 404)
            #expect(try await call(.PUT, "/v1/admin/experiments/e1", "{\"bundleId\": \"\(kit.bundleId)\", \"control\": \"default\", \"treatment\": \"nope\"}").0 == 404)
            #expect(try await call(.GET, "/v1/admin/experiments/e1").0 == 404)
            // The dashboard's page shows the offering's copy as text.
            var page = HTTPClientRequest(url: server + "/paywalls")
            page.method = .GET
            let html = String(buffer: try await http.execute(page, timeout: .seconds(30)).body.collect(upTo: 1 << 20))
            #expect(html.contains("<table aria-label=\"Offerings of \(kit.bundleId)\"") && html.contains("&lt;b&gt;Plus&lt;/b&gt;") && !html.contains("<b>Plus"))
            #expect(try await call(.DELETE, app + "/offerings/default").0 == 200)
            #expect(try await call(.DELETE, app + "/offerings/default").0 == 404)
        }
    }
}
