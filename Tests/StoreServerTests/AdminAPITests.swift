import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

/// A catalog with a plain monthly subscription (no intro offer), so renewals fall exactly a month apart.
let adminCatalogJSON = fixtureCatalog("admin")

/// The admin API and the world-scoped device routes, over real HTTP.
@Suite(.removesTemporaryFolders) struct AdminAPITests {
    static let bundle = "com.example.admin"

    func withServer(host: String = "127.0.0.1", adminToken: String? = nil, peer: SocketAddress? = nil,
                    _ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 77, environment: .sandbox, name: "Admin", catalogJSON: adminCatalogJSON),
        ], host: host, adminToken: adminToken, peer: peer, body)
    }

    /// The decoded payload of a JWS (its signature is checked by the device API tests).
    static func payload(_ jws: String) -> [String: Any] {
        let parts = jws.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static func transactions(_ server: LiveServer, world: String, customer: String, scope: String = "transactions") async throws -> [[String: Any]] {
        let answer = try await server.request(.GET, "/storekit/v1/worlds/\(world)/apps/\(bundle)/customers/\(customer)/\(scope)")
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return (answer.json["signedTransactions"] as? [String] ?? []).map(payload)
    }

    static func buy(_ server: LiveServer, world: String, product: String, customer: String, quantity: Int = 1) async throws -> LiveServer.Answer {
        try await server.json(.POST, "/storekit/v1/worlds/\(world)/apps/\(bundle)/purchases",
                              ["productId": product, "customer": customer, "quantity": quantity])
    }

    @Test func aWorldIsCreatedUsedAndDeletedOverHTTP() async throws {
        try await withServer { server in
            let created = try await server.json(.POST, "/admin/v1/worlds", ["id": "t-create", "rate": "oneSecondIsOneDay"])
            #expect(created.status == 201)
            #expect(created.json["id"] as? String == "t-create")
            #expect(created.json["clockSpeed"] as? Double == 86_400)
            let again = try await server.json(.POST, "/admin/v1/worlds", ["id": "t-create"])
            #expect(again.status == 409 && again.json["error"] as? String == "invalidAction")
            let badName = try await server.json(.POST, "/admin/v1/worlds", ["id": "no spaces"])
            #expect(badName.status == 400 && badName.json["error"] as? String == "malformedRequest")
            let badRate = try await server.json(.POST, "/admin/v1/worlds", ["id": "t-rate", "rate": "fast"])
            #expect(badRate.status == 400 && badRate.json["error"] as? String == "malformedRequest")

            let list = try await server.request(.GET, "/admin/v1/worlds")
            let ids = (list.json["worlds"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.contains("default") && ids.contains("t-create"))

            let bought = try await Self.buy(server, world: "t-create", product: "a.coins", customer: "ann")
            #expect(bought.status == 200 && bought.json["status"] as? String == "purchased")
            #expect(try await Self.transactions(server, world: "t-create", customer: "ann").count == 1)
            #expect(try await Self.transactions(server, world: "default", customer: "ann").isEmpty)
            let customer = try await server.request(.GET, "/storekit/v1/worlds/t-create/customers/ann")
            #expect(customer.status == 200)

            let reset = try await server.request(.POST, "/admin/v1/worlds/t-create/reset")
            #expect(reset.status == 200)
            #expect(try await Self.transactions(server, world: "t-create", customer: "ann").isEmpty)

            let deleted = try await server.request(.DELETE, "/admin/v1/worlds/t-create")
            #expect(deleted.status == 200 && deleted.json["deleted"] as? Bool == true)
            let gone = try await server.request(.GET, "/admin/v1/worlds/t-create")
            #expect(gone.status == 404 && gone.json["error"] as? String == "worldNotFound")
            let buyInGone = try await Self.buy(server, world: "t-create", product: "a.coins", customer: "ann")
            #expect(buyInGone.status == 404 && buyInGone.json["error"] as? String == "worldNotFound")
            let deleteDefault = try await server.request(.DELETE, "/admin/v1/worlds/default")
            #expect(deleteDefault.status == 409)
        }
    }

    @Test func parallelWorldsCannotSeeEachOther() async throws {
        try await withServer { server in
            let worlds = (1...4).map { "t-parallel-\($0)" }
            // Each world: the same customer name, its own quantity and its own clock jump.
            /// What one world saw, reduced to Sendable values.
            struct Seen: Sendable {
                var world: String
                var months: Int
                var coinQuantities: [Int]
                var proCount: Int
                var transactionIds: Set<String>
                var eventTransactionIds: Set<String>
            }
            let seen = try await withThrowingTaskGroup(of: Seen.self) { group in
                for (index, world) in worlds.enumerated() {
                    group.addTask {
                        let months = index + 1
                        #expect(try await server.json(.POST, "/admin/v1/worlds", ["id": world]).status == 201)
                        #expect(try await Self.buy(server, world: world, product: "a.coins", customer: "same", quantity: months).status == 200)
                        #expect(try await Self.buy(server, world: world, product: "a.pro", customer: "same").status == 200)
                        let advanced = try await server.json(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P\(months)M"])
                        #expect(advanced.status == 200)
                        _ = try await server.json(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "1d"])
                        let transactions = try await Self.transactions(server, world: world, customer: "same")
                        let events = try await server.request(.GET, "/admin/v1/worlds/\(world)/events").json["events"] as? [[String: Any]] ?? []
                        return Seen(
                            world: world, months: months,
                            coinQuantities: transactions.filter { $0["productId"] as? String == "a.coins" }.compactMap { $0["quantity"] as? Int },
                            proCount: transactions.filter { $0["productId"] as? String == "a.pro" }.count,
                            transactionIds: Set(transactions.compactMap { $0["transactionId"] as? String }),
                            eventTransactionIds: Set(events.compactMap { $0["transactionId"] as? String }))
                    }
                }
                var all: [Seen] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(seen.count == worlds.count)
            var idsByWorld: [String: Set<String>] = [:]
            for world in seen {
                #expect(world.coinQuantities == [world.months], "\(world.world)")
                #expect(world.proCount == world.months + 1, "\(world.world): a purchase and \(world.months) renewals")
                idsByWorld[world.world] = world.transactionIds
                #expect(world.eventTransactionIds.isSubset(of: world.transactionIds), "\(world.world) sees only its own events")
            }
            let union = idsByWorld.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            #expect(union.count == idsByWorld.values.map(\.count).reduce(0, +), "no transaction is in two worlds")
            #expect(try await Self.transactions(server, world: "default", customer: "same").isEmpty)
            let stranger = try await server.request(.GET, "/storekit/v1/customers/same")
            #expect(stranger.status == 404)
        }
    }

    @Test func advancingTimeFiresTheRenewal() async throws {
        try await withServer { server in
            #expect(try await server.json(.POST, "/admin/v1/worlds", ["id": "t-renew"]).status == 201)
            let bought = try await Self.buy(server, world: "t-renew", product: "a.pro", customer: "ren")
            #expect(bought.status == 200)
            let firstJWS = try #require(bought.json["signedTransaction"] as? String)
            let first = Self.payload(firstJWS)
            let before = try await server.request(.GET, "/admin/v1/worlds/t-renew/time")
            let month = try await server.json(.POST, "/admin/v1/worlds/t-renew/time/advance", ["duration": "1M"])
            #expect(month.status == 200)
            #expect((month.json["advancedMs"] as? Int64 ?? 0) >= 28 * 86_400_000)
            let day = try await server.json(.POST, "/admin/v1/worlds/t-renew/time/advance", ["duration": 86_400_000])
            #expect(day.json["advancedMs"] as? Int == 86_400_000)
            #expect((day.json["nowMs"] as? Int64 ?? 0) > (before.json["nowMs"] as? Int64 ?? .max))

            let transactions = try await Self.transactions(server, world: "t-renew", customer: "ren")
            #expect(transactions.count == 2)
            let renewal = try #require(transactions.first { $0["transactionReason"] as? String == "RENEWAL" })
            #expect(renewal["originalTransactionId"] as? String == first["transactionId"] as? String)
            #expect(renewal["purchaseDate"] as? Int64 == first["expiresDate"] as? Int64)

            let statuses = try await server.request(.GET, "/admin/v1/worlds/t-renew/apps/\(Self.bundle)/customers/ren/subscriptions")
            let items = try #require(statuses.json["subscriptions"] as? [[String: Any]])
            #expect(items.count == 1 && items[0]["status"] as? Int == 1)
            #expect((items[0]["transaction"] as? [String: Any])?["transactionId"] as? String == renewal["transactionId"] as? String)
            #expect(items[0]["signedRenewalInfo"] is String)
            let events = try await server.request(.GET, "/admin/v1/worlds/t-renew/events")
            #expect((events.json["events"] as? [[String: Any]] ?? []).contains { $0["type"] as? String == "DID_RENEW" })

            let badDuration = try await server.json(.POST, "/admin/v1/worlds/t-renew/time/advance", ["duration": "soon"])
            #expect(badDuration.status == 400 && badDuration.json["error"] as? String == "malformedRequest")
            let rate = try await server.json(.POST, "/admin/v1/worlds/t-renew/time/rate", ["rate": 6])
            #expect(rate.status == 200 && rate.json["clockSpeed"] as? Double == 86_400)
        }
    }

    @Test func switchesAndSimulatedErrorsTakeEffect() async throws {
        try await withServer { server in
            let world = "t-switches"
            #expect(try await server.json(.POST, "/admin/v1/worlds", ["id": world]).status == 201)

            let set = try await server.json(.PUT, "/admin/v1/worlds/\(world)/simulated-errors/purchase", ["error": "userCancelled"])
            #expect(set.status == 200 && set.json["api"] as? String == "Purchase")
            let failed = try await Self.buy(server, world: world, product: "a.coins", customer: "sam")
            #expect(failed.status == 409 && failed.json["error"] as? String == "userCancelled")
            // Another world is untouched.
            #expect(try await Self.buy(server, world: "default", product: "a.coins", customer: "sam").status == 200)
            let cleared = try await server.request(.DELETE, "/admin/v1/worlds/\(world)/simulated-errors/Purchase")
            #expect(cleared.status == 200 && cleared.json["error"] == nil)
            #expect(try await Self.buy(server, world: world, product: "a.coins", customer: "sam").status == 200)
            let encoded = try await server.json(.PUT, "/admin/v1/worlds/\(world)/simulated-errors/Load%20Products", ["error": "networkError"])
            #expect(encoded.status == 200 && encoded.json["slug"] as? String == "load-products")
            let unknown = try await server.json(.PUT, "/admin/v1/worlds/\(world)/simulated-errors/teleport", ["error": "x"])
            #expect(unknown.status == 404 && unknown.json["error"] as? String == "notFound")
            // Answers print their keys sorted: a world's simulated errors read the same in every process.
            _ = try await server.json(.PUT, "/admin/v1/worlds/\(world)/simulated-errors/App%20Transaction", ["error": "unknown"])
            let listed = try await server.request(.GET, "/admin/v1/worlds/\(world)").text
            let apps = try #require(listed.range(of: "\"App Transaction\"")), loads = try #require(listed.range(of: "\"Load Products\""))
            #expect(apps.lowerBound < loads.lowerBound && listed.range(of: "\"createdMs\"")!.lowerBound < listed.range(of: "\"id\"")!.lowerBound)

            let typo = try await server.json(.PATCH, "/admin/v1/worlds/\(world)/settings", ["askTobuy": true])
            #expect(typo.status == 400 && typo.json["error"] as? String == "malformedRequest")
            let on = try await server.json(.PATCH, "/admin/v1/worlds/\(world)/settings", ["askToBuy": true])
            #expect(on.status == 200 && (on.json["settings"] as? [String: Any])?["askToBuy"] as? Bool == true)

            let pending = try await Self.buy(server, world: world, product: "a.pro", customer: "kid")
            #expect(pending.status == 200 && pending.json["status"] as? String == "pending")
            let pendingId = try #require(pending.json["pendingId"] as? String)
            #expect(pending.json["signedTransaction"] == nil)
            #expect(try await Self.transactions(server, world: world, customer: "kid", scope: "unfinished").isEmpty)
            let waiting = try await server.request(.GET, "/admin/v1/worlds/\(world)/pending-purchases")
            #expect((waiting.json["pendingPurchases"] as? [[String: Any]])?.map { $0["id"] as? String } == [pendingId])

            let approved = try await server.request(.POST, "/admin/v1/worlds/\(world)/pending-purchases/\(pendingId)/approve")
            #expect(approved.status == 200 && approved.json["status"] as? String == "purchased")
            let unfinished = try await Self.transactions(server, world: world, customer: "kid", scope: "unfinished")
            #expect(unfinished.map { $0["productId"] as? String } == ["a.pro"])

            let second = try await Self.buy(server, world: world, product: "a.coins", customer: "kid")
            let secondId = try #require(second.json["pendingId"] as? String)
            let declined = try await server.request(.POST, "/admin/v1/worlds/\(world)/pending-purchases/\(secondId)/decline")
            #expect(declined.status == 200 && declined.json["status"] as? String == "declined")
            let empty = try await server.request(.GET, "/admin/v1/worlds/\(world)/pending-purchases")
            #expect((empty.json["pendingPurchases"] as? [Any])?.isEmpty == true)
            let twice = try await server.request(.POST, "/admin/v1/worlds/\(world)/pending-purchases/\(secondId)/approve")
            #expect(twice.status == 404)
        }
    }

    @Test func transactionActionsChangeTheSubscription() async throws {
        try await withServer { server in
            let world = "t-actions"
            #expect(try await server.json(.POST, "/admin/v1/worlds", ["id": world]).status == 201)
            let bought = try await Self.buy(server, world: world, product: "a.pro", customer: "act")
            let boughtJWS = try #require(bought.json["signedTransaction"] as? String)
            let id = try #require(Self.payload(boughtJWS)["transactionId"] as? String)
            let base = "/admin/v1/worlds/\(world)/transactions/\(id)"

            let off = try await server.json(.POST, base + "/auto-renew", ["enabled": false])
            #expect(off.status == 200 && (off.json["renewalInfo"] as? [String: Any])?["autoRenewStatus"] as? Int == 0)
            let backOn = try await server.json(.POST, base + "/auto-renew", ["enabled": true])
            #expect((backOn.json["renewalInfo"] as? [String: Any])?["autoRenewStatus"] as? Int == 1)

            let renewed = try await server.request(.POST, base + "/renew")
            #expect(renewed.status == 200)
            #expect((renewed.json["transaction"] as? [String: Any])?["transactionReason"] as? String == "RENEWAL")
            #expect(try await Self.transactions(server, world: world, customer: "act").count == 2)

            let expired = try await server.request(.POST, base + "/expire")
            #expect(expired.status == 200 && (expired.json["renewalInfo"] as? [String: Any])?["expirationIntent"] as? Int == 1)

            let coins = try await Self.buy(server, world: world, product: "a.coins", customer: "act")
            let coinJWS = try #require(coins.json["signedTransaction"] as? String)
            let coinId = try #require(Self.payload(coinJWS)["transactionId"] as? String)
            let refunded = try await server.json(.POST, "/admin/v1/worlds/\(world)/transactions/\(coinId)/refund", ["reason": 1])
            #expect(refunded.status == 200)
            #expect((refunded.json["transaction"] as? [String: Any])?["revocationReason"] as? Int == 1)
            let badReason = try await server.json(.POST, "/admin/v1/worlds/\(world)/transactions/\(coinId)/refund", ["reason": 7])
            #expect(badReason.status == 400)
            let missing = try await server.request(.POST, "/admin/v1/worlds/\(world)/transactions/999/renew")
            #expect(missing.status == 404 && missing.json["error"] as? String == "transactionNotFound")

            let clear = try await server.request(.DELETE, "/admin/v1/worlds/\(world)/apps/\(Self.bundle)/transactions?customer=act")
            #expect(clear.status == 200)
            #expect(try await Self.transactions(server, world: world, customer: "act").isEmpty)
        }
    }

    @Test func aTokenGuardsTheAdminAPIButNotTheDeviceAPI() async throws {
        try await withServer(adminToken: "s3cret") { server in
            func get(_ path: String, authorization: String?) async throws -> (Int, [String: Any]) {
                var request = HTTPClientRequest(url: server.base + path)
                if let authorization { request.headers.add(name: "Authorization", value: authorization) }
                let response = try await server.client.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:])
            }
            let none = try await get("/admin/v1/worlds", authorization: nil)
            #expect(none.0 == 401 && none.1["error"] as? String == "unauthorized")
            #expect(try await get("/admin/v1/worlds", authorization: "Bearer wrong").0 == 401)
            #expect(try await get("/admin/v1/worlds", authorization: "Bearer s3cre").0 == 401)
            #expect(try await get("/admin/v1/worlds", authorization: "Basic s3cret").0 == 401)
            #expect(try await get("/admin/v1/worlds", authorization: "Bearer s3cret").0 == 200)
            #expect(try await get("/storekit/v1/apps", authorization: nil).0 == 200)
        }
    }

    @Test func withoutATokenOnlyLoopbackPeersReachTheAdminAPI() async throws {
        try await withServer(host: "0.0.0.0") { server in
            let local = try await server.request(.GET, "/admin/v1/worlds")
            #expect(local.status == 200)
        }
        // An outside peer, injected: a CI container often has no address but loopback to connect from.
        for outside in ["203.0.113.7", "::ffff:192.0.2.1", "2001:db8::1"] {
            try await withServer(peer: try SocketAddress(ipAddress: outside, port: 40_000)) { server in
                let admin = try await server.request(.GET, "/admin/v1/worlds")
                #expect(admin.status == 403 && admin.json["error"] as? String == "forbidden", "\(outside)")
                let created = try await server.json(.POST, "/admin/v1/worlds", ["id": "from-outside"])
                #expect(created.status == 403, "\(outside)")
                #expect(try await server.request(.GET, "/storekit/v1/apps").status == 200, "the device API answers \(outside)")
            }
        }
        // With a token, the outside peer that presents it gets in.
        try await withServer(adminToken: "t0ken", peer: try SocketAddress(ipAddress: "203.0.113.7", port: 40_000)) { server in
            var request = HTTPClientRequest(url: server.base + "/admin/v1/worlds")
            request.headers.add(name: "Authorization", value: "Bearer t0ken")
            let response = try await server.client.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 200)
        }
        // And loopback in every spelling is local.
        for local in ["127.8.9.10", "::ffff:127.0.0.1"] {
            try await withServer(peer: try SocketAddress(ipAddress: local, port: 40_000)) { server in
                let answer = try await server.request(.GET, "/admin/v1/worlds")
                #expect(answer.status == 200, "\(local)")
            }
        }
    }
}
