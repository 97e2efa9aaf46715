import Foundation
@testable import StoreEngine
import StoreModel
import StoreSigning
import StoreStorage
import StoreTestSupport
import Testing

/// The Server API's rules in the engine, without HTTP.
@Suite(.removesTemporaryFolders) struct ServerAPIEngineTests {
    func caller(_ store: AppStore, world: String = AppStore.defaultWorld) async throws -> ServerAPICaller {
        let key = try await store.createAPIKey(bundleId: testBundle, world: world)
        let gateway = ServerAPIGateway(store: store)
        let token = try APITokenSigner(generated: key).token(now: store.clock.now(), options: .swift)
        return try await gateway.authenticate(token: token)
    }

    func purchase(_ store: AppStore, _ product: String, customer: String = "ana") async throws -> String {
        try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: product, customer: customer)).transaction).payload.transactionId
    }

    @Test func historyQueryParsing() throws {
        let request = try TransactionHistoryRequest(parameters: [
            ("revoked", "False"), ("productType", "CONSUMABLE"), ("productId", "a"), ("productType", "AUTO_RENEWABLE"),
            ("productId", "b"), ("sort", "DESCENDING"), ("startDate", "10"), ("endDate", "20"),
        ])
        #expect(request.revoked == false)
        #expect(request.productTypes == [.consumable, .autoRenewable])
        #expect(request.productIds == ["a", "b"])
        #expect(request.descending)
        #expect(request.startDate == 10 && request.endDate == 20)
        let cases: [([(key: String, value: String)], Int64)] = [
            ([("sort", "ascending")], 4_000_021), ([("productType", "Consumable")], 4_000_022),
            ([("revoked", "1")], 4_000_030), ([("inAppOwnershipType", "purchased")], 4_000_026),
            ([("startDate", "1.5")], 4_000_015), ([("endDate", "")], 4_000_016),
            ([("startDate", "5"), ("endDate", "5")], 4_000_013), ([("productId", "")], 4_000_023),
            ([("subscriptionGroupIdentifier", "")], 4_000_024),
        ]
        for (parameters, code) in cases {
            #expect(throws: ServerAPIError.self) { try TransactionHistoryRequest(parameters: parameters) }
            do { _ = try TransactionHistoryRequest(parameters: parameters) } catch { #expect(error.code == code, "\(parameters)") }
        }
    }

    @Test func historyPagesResumeAfterModification() async throws {
        let store = try await makeStore()
        let me = try await caller(store)
        var ids: [String] = []
        for _ in 0..<45 { ids.append(try await purchase(store, "test.seeds")) }
        var seen: [String] = []
        var revision: String?
        var pages = 0
        repeat {
            var request = TransactionHistoryRequest()
            request.revision = revision
            let page = try await store.transactionHistory(anyTransactionId: ids[0], request: request, version: .v2, caller: me)
            pages += 1
            #expect(page.signedTransactions.count <= 20)
            seen += page.signedTransactions.map { jws in
                let payload = Base64URL.decode(jws.split(separator: ".")[1])!
                return (try? JSONDecoder().decode(TransactionPayload.self, from: Data(payload)))?.transactionId ?? ""
            }
            revision = page.revision
            if !page.hasMore { break }
        } while true
        #expect(pages == 3)
        #expect(seen == ids)
        try await store.setAppAccountToken(originalTransactionId: ids[7], body: Data(#"{"appAccountToken":"\#(UUID().uuidString)"}"#.utf8), caller: me)
        var request = TransactionHistoryRequest()
        request.revision = revision
        let later = try await store.transactionHistory(anyTransactionId: ids[0], request: request, version: .v2, caller: me)
        #expect(later.signedTransactions.count == 1)
        #expect(later.hasMore == false)
        await store.shutdown()
    }

    @Test func appAccountTokenNeedsAnOriginalTransaction() async throws {
        let store = try await makeStore()
        let me = try await caller(store)
        let id = try await purchase(store, "test.monthly")
        var renewal = try #require(try await store.database.transaction(id: Int64(id)!))
        renewal.id += 1_000_000
        renewal.seq += 1_000_000
        renewal.payload = renewal.payload.replacingOccurrences(of: "\"transactionId\":\"\(id)\"", with: "\"transactionId\":\"\(renewal.id)\"")
        #expect(renewal.payload.contains(String(renewal.id)))
        try await store.database.write(WriteBatch(transactions: [renewal]))
        let body = Data(#"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#.utf8)
        await #expect(throws: ServerAPIError.transactionIdIsNotOriginalTransactionId) {
            try await store.setAppAccountToken(originalTransactionId: String(renewal.id), body: body, caller: me)
        }
        await #expect(throws: ServerAPIError.invalidAppAccountTokenUUID) {
            try await store.setAppAccountToken(originalTransactionId: id, body: Data(#"{"appAccountToken":"x"}"#.utf8), caller: me)
        }
        // The original gets the token. (Renewals: see the report; a hand-made renewal row is not
        // a real chain, so it is not checked here.)
        try await store.setAppAccountToken(originalTransactionId: id, body: body, caller: me)
        for txid in [Int64(id)!] {
            let record = try #require(try await store.database.transaction(id: txid))
            #expect(record.payload.contains("7e3fb20b-4cdb-47cc-936d-99d65f608138"), "transaction \(txid)")
        }
        var family = try #require(try await store.database.transaction(id: Int64(id)!))
        family.ownership = InAppOwnershipType.familyShared.rawValue
        try await store.database.write(WriteBatch(transactions: [family]))
        await #expect(throws: ServerAPIError.familyTransactionNotSupported) {
            try await store.setAppAccountToken(originalTransactionId: id, body: body, caller: me)
        }
        await store.shutdown()
    }

    @Test func worldsAreSeparate() async throws {
        let store = try await makeStore()
        let id = try await purchase(store, "test.seeds")
        _ = try await store.createWorld("elsewhere")  // a key of a world that does not exist opens nothing
        let key = try await store.createAPIKey(bundleId: testBundle, world: "elsewhere")
        let gateway = ServerAPIGateway(store: store)
        let elsewhere = try await gateway.authenticate(token: try APITokenSigner(generated: key).token(now: store.clock.now()))
        #expect(elsewhere.world == "elsewhere")
        await #expect(throws: (any Error).self) { try await store.transactionInfo(transactionId: id, caller: elsewhere) }
        await store.shutdown()
    }

    @Test func rateLimitCountsPerKey() async throws {
        let store = try await makeStore()
        let gateway = ServerAPIGateway(store: store, rateLimitPerMinute: 2)
        let a = try APITokenSigner(generated: try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle))
        let b = try APITokenSigner(generated: try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle))
        let now = Date()
        _ = try await gateway.authenticate(token: a.token(now: now), now: now)
        _ = try await gateway.authenticate(token: a.token(now: now), now: now)
        await #expect(throws: ServerAPIError.rateLimitExceeded) { try await gateway.authenticate(token: a.token(now: now), now: now) }
        _ = try await gateway.authenticate(token: b.token(now: now), now: now)
        let later = now.addingTimeInterval(61)
        _ = try await gateway.authenticate(token: a.token(now: later), now: later)
        await store.shutdown()
    }

    @Test func consumptionBodies() throws {
        let good = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":25000}"#
        #expect(try ConsumptionRequestV2(body: Data(good.utf8)).consumptionPercentage == 25000)
        let bad: [(String, ServerAPIError)] = [
            (#"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, .invalidCustomerConsented),
            (#"{"customerConsented":1,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, .invalidCustomerConsented),
            (#"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#, .invalidSampleContentProvided),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":2}"#, .invalidDeliveryStatus),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"X"}"#, .invalidRefundPreference),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":100001}"#, .consumptionPercentageOutOfRange),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"UNDELIVERED_OTHER","consumptionPercentage":5}"#, .undeliveredConsumptionPercentageNonZero),
            ("[]", .generalBadRequest),
        ]
        for (body, error) in bad {
            #expect(throws: error) { try ConsumptionRequestV2(body: Data(body.utf8)) }
        }
    }
}
