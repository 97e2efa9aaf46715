import Foundation
import SQLKit
import StoreShared
import Testing
@testable import SubscriptionBackend

/// Identity (#34 §2): anonymous customers and their merge on log in, transfers by the app's
/// policy, and deletion. Behaviour follows RevenueCat's "Restore Behavior" page: "If the purchase
/// is currently associated with an anonymous App User ID, that App User ID will be aliased with the
/// new App User ID instead", and between identified IDs "Transfer to new App User ID" (default) or
/// "Keep with original App User ID".
@Suite struct IdentityTests {
    static let t0 = SignedDataKit.start, day = SignedDataKit.day

    /// A subscription bought at t0 whose SUBSCRIBED notification carries no appAccountToken.
    static func subscribed(_ kit: SignedDataKit, original: String, token: String? = nil) throws -> (notification: String, jws: String) {
        let tx = kit.transaction(id: original, original: original, purchase: t0, expires: t0 + 30 * day, token: token)
        let notification = try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: tx,
                                                renewal: kit.renewal(original: original, signed: t0))
        return (notification, try kit.sign(tx))
    }

    @Test(arguments: BackendTestEngine.all) func purchasesNobodyClaimedGetAnAnonymousCustomerWhoMergesOnLogIn(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let clock = ManualWallClock(nowMs: Self.t0 + Self.day)
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock)) { test in
            let backend = test.backend
            let purchase = try Self.subscribed(kit, original: "100")
            #expect(try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: purchase.notification) == .applied)
            // The App Store's data names no user: an anonymous customer of its own holds it, counted
            // among the customers (the dashboard no longer shows a subscription with no customer).
            let anonymous = CustomerIdentity.anonymousId(environment: "Sandbox", originalTransactionId: "100")
            #expect(anonymous.hasPrefix("$anon:"))
            let before = try #require(try await backend.customerInfo(appUserId: anonymous))
            #expect(before.entitlements["plus"]?.isActive == true)
            #expect(try await test.eventTypes(anonymous) == ["INITIAL_PURCHASE"])
            #expect(try await backend.overview(environment: nil).customers == 1)

            // The app posts the purchase for ann after she signs in: the anonymous customer merges into her.
            clock.advance(byMs: 1_000)
            let ann = try await backend.receiveTransaction(appUserId: "ann", signedTransaction: purchase.jws)
            #expect(ann.appUserId == "ann" && ann.entitlements["plus"]?.isActive == true)
            #expect(ann.originalAppUserId == anonymous && ann.aliases == [anonymous])
            #expect(ann.firstSeen == before.firstSeen)
            #expect(try await test.eventTypes("ann") == ["INITIAL_PURCHASE"])
            // The anonymous ID still answers, as ann.
            #expect(try await backend.customerInfo(appUserId: anonymous)?.appUserId == "ann")
            #expect(try await backend.overview(environment: nil).customers == 1)
            #expect(try await test.eventTypes(anonymous) == ["INITIAL_PURCHASE"], "the alias lists its customer's events")

            // A token nobody claimed names a provisional customer, merged into whoever claims the token.
            let token = "6f1c1d4e-2222-4a6b-9c1d-5e8f000000aa"
            let second = try Self.subscribed(kit, original: "200", token: token)
            #expect(try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: second.notification) == .applied)
            #expect(try await backend.customerInfo(appUserId: token)?.subscriptions.count == 1)
            let bob = try await backend.receiveTransaction(appUserId: "bob", signedTransaction: second.jws)
            #expect(bob.subscriptions.map(\.originalTransactionId) == ["200"] && bob.aliases == [token])

            // A device's own anonymous ID (an SDK's, before log in) with attributes, logged in to a new ID.
            _ = try await backend.setAttributes(appUserId: "$RCAnonymousID:d1", ["$displayName": "Dee"])
            let login = try await backend.logIn(appUserId: "$RCAnonymousID:d1", newAppUserId: "dee")
            #expect(login.created && login.customer.appUserId == "dee")
            #expect(login.customer.subscriberAttributes["$displayName"]?.value == "Dee")
            #expect(login.customer.originalAppUserId == "$RCAnonymousID:d1")
            // Logging in again changes nothing; two identified customers are never merged.
            #expect(try await backend.logIn(appUserId: "dee", newAppUserId: "dee").created == false)
            await #expect(throws: AliasConflict.self) { try await backend.logIn(appUserId: "ann", newAppUserId: "bob") }
            // From an identified customer, log in switches to the other one: nothing of bob's moves
            // (a shared device's next user must not get his purchases or attributes).
            let switched = try await backend.logIn(appUserId: "bob", newAppUserId: "robert")
            #expect(switched.created && switched.customer.subscriptions.isEmpty && switched.customer.aliases.isEmpty)
            #expect(try await backend.customerInfo(appUserId: "bob")?.subscriptions.map(\.originalTransactionId) == ["200"])
        }
    }

    @Test(arguments: BackendTestEngine.all) func aPurchasePostedForASecondCustomerMovesOrStaysByTheAppsPolicy(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        for policy in TransferPolicy.allCases {
            try await TestBackend.with(trusting: [kit.authority.rootDER],
                                       webhooks: [WebhookTarget(url: "http://127.0.0.1:9/hook", secret: "s")], engine: engine,
                                       configure: { $0.apps[0].transferPolicy = policy }) { test in
                let backend = test.backend
                let purchase = try Self.subscribed(kit, original: "300")
                _ = try await backend.receiveTransaction(appUserId: "ann", signedTransaction: purchase.jws)
                switch policy {
                case .transfer:
                    // RevenueCat's default: "only one customer at a time can have access".
                    let bob = try await backend.receiveTransaction(appUserId: "bob", signedTransaction: purchase.jws)
                    #expect(bob.entitlements["plus"]?.isActive == true)
                    #expect(try await backend.customerInfo(appUserId: "ann")?.subscriptions.isEmpty == true)
                    let transfer = try #require(try await backend.events(appUserId: "bob", limit: 100).first { $0.type == "TRANSFER" })
                    #expect(transfer.transferredFrom == ["ann"] && transfer.transferredTo == ["bob"])
                    #expect(transfer.originalTransactionId == "300" && transfer.productId == "plus.monthly")
                    // Queued for the webhook like every event.
                    let outbox = try await test.backend.database.readSQL.select().column("eventId").from("bk_outbox")
                        .all(decodingColumn: "eventId", as: String.self)
                    #expect(outbox.contains(transfer.id))
                    // Posting it again for bob changes nothing; ann taking it back is a second transfer.
                    _ = try await backend.receiveTransaction(appUserId: "bob", signedTransaction: purchase.jws)
                    #expect(try await backend.events(appUserId: nil, limit: 100).filter { $0.type == "TRANSFER" }.count == 1)
                case .keep:
                    await #expect(throws: PurchaseBelongsToAnotherCustomer.self) {
                        try await backend.receiveTransaction(appUserId: "bob", signedTransaction: purchase.jws)
                    }
                    #expect(try await backend.customerInfo(appUserId: "ann")?.entitlements["plus"]?.isActive == true)
                    #expect(try await backend.customerInfo(appUserId: "bob")?.subscriptions.isEmpty == true)
                    #expect(try await backend.events(appUserId: nil, limit: 100).allSatisfy { $0.type != "TRANSFER" })
                }
                // A device not logged in restoring it is a second customer like any other, and is never
                // answered with the owner's info; a purchase whose token the owner claimed likewise.
                let owner = policy == .transfer ? "bob" : "ann"
                _ = try await backend.setAttributes(appUserId: owner, ["$email": "\(owner)@example.com"])
                let tokened = try Self.subscribed(kit, original: "301", token: "6f1c1d4e-5555-4a6b-9c1d-5e8f000000ff")
                _ = try await backend.receiveTransaction(appUserId: owner, signedTransaction: tokened.jws)
                for jws in [purchase.jws, tokened.jws] {
                    switch policy {
                    case .transfer:
                        let device = try await backend.receiveTransaction(appUserId: "$anon:device", signedTransaction: jws)
                        #expect(device.appUserId == "$anon:device" && device.subscriberAttributes.isEmpty && device.aliases.isEmpty)
                    case .keep:
                        await #expect(throws: PurchaseBelongsToAnotherCustomer.self) {
                            try await backend.receiveTransaction(appUserId: "$anon:device", signedTransaction: jws)
                        }
                    }
                }
                let kept = try await backend.customerInfo(appUserId: owner)?.subscriptions.count
                #expect(kept == (policy == .transfer ? 0 : 2))
            }
        }
    }

    @Test(arguments: BackendTestEngine.all) func deletionLeavesNoPersonalDataAndTheFiguresUnchanged(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let clock = ManualWallClock(nowMs: Self.t0 + Self.day)
        let email = "ann.deleted@example.com", name = "Ann Deletedname", token = "6f1c1d4e-3333-4a6b-9c1d-5e8f000000dd"
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock)) { test in
            let backend = test.backend
            let mine = try Self.subscribed(kit, original: "400", token: token)
            _ = try await backend.receiveTransaction(appUserId: email, signedTransaction: mine.jws)
            let shared = try Self.subscribed(kit, original: "401")
            _ = try await backend.receiveTransaction(appUserId: email, signedTransaction: shared.jws)
            _ = try await backend.receiveTransaction(appUserId: "bob", signedTransaction: shared.jws)   // TRANSFER from the email
            _ = try await backend.setAttributes(appUserId: email, ["$email": email, "$displayName": name])
            _ = try await backend.grantEntitlement(appUserId: email, entitlement: "plus", duration: .monthly, expiresMs: nil, bundleId: nil)
            _ = try await backend.recordConsent(appUserId: email, consented: true)
            _ = try await backend.logIn(appUserId: email, newAppUserId: email)
            _ = try await backend.receiveAppTransaction(appUserId: email, signedAppTransaction: try Self.appTransaction(
                kit, version: "9.9.\(name)", firstDownload: Self.t0 - Self.day, signed: Self.t0))
            await backend.lastSeen.flush()
            let figures = try await backend.overview(environment: nil)
            #expect(try await Self.rowsMentioning([email, name, token], in: test).isEmpty == false)

            #expect(try await backend.deleteCustomer(appUserId: email))
            #expect(try await backend.customerInfo(appUserId: email) == nil)
            #expect(try await backend.deleteCustomer(appUserId: email) == false)
            #expect(try await backend.overview(environment: nil) == figures)
            #expect(try await Self.rowsMentioning([email, name, token], in: test) == [])
            if engine == .sqlite {
                // The file itself, and its write-ahead log: no erased text left in free pages.
                for suffix in ["", "-wal"] {
                    let url = test.folder.appendingPathComponent("backend.sqlite" + suffix)
                    guard let data = try? Data(contentsOf: url) else { continue }
                    for secret in [email, name, token] { #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) in backend.sqlite\(suffix)") }
                }
            }
            // The transfer's event, bob's, no longer names the deleted customer.
            let transfer = try #require(try await backend.events(appUserId: "bob", limit: 100).first { $0.type == "TRANSFER" })
            #expect(transfer.transferredFrom?.first?.hasPrefix("$deleted:") == true)
            // Final: the same ID later is a new customer with nothing of the old one's.
            let again = try await backend.receiveTransaction(appUserId: email, signedTransaction: mine.jws)
            #expect(again.subscriberAttributes.isEmpty && again.aliases.isEmpty && again.firstSeen == Self.t0 + Self.day)
        }
    }

    /// Every stored row (any bk_ table, any column) whose text holds one of `needles`.
    static func rowsMentioning(_ needles: [String], in test: TestBackend) async throws -> [String] {
        let sql = test.backend.database.readSQL
        let tables = ["bk_transactions", "bk_renewals", "bk_links", "bk_customers", "bk_aliases", "bk_user_aliases", "bk_attributes",
                      "bk_grants", "bk_notifications", "bk_cursors", "bk_revisions", "bk_events", "bk_outbox", "bk_deliveries",
                      "bk_refund_requests", "bk_consents", "bk_app_transactions"]
        var found: [String] = []
        for table in tables {
            for row in try await sql.select().columns("*").from(table).all() {
                for column in row.allColumns {
                    guard let text = try? row.decode(column: column, as: String?.self) else { continue }
                    // The signed JWS is Apple's own data (base64): its appAccountToken stays, as documented.
                    if column == "jws" { continue }
                    for needle in needles where text.contains(needle) { found.append("\(table).\(column) holds \(needle)") }
                }
            }
        }
        return found
    }

    @Test(arguments: BackendTestEngine.all) func attributesGrantsAndLastSeenFollowTheClock(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let start = Self.t0 + Self.day
        let clock = ManualWallClock(nowMs: start)
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock)) { test in
            let backend = test.backend
            var info = try await backend.setAttributes(appUserId: "ann", ["$email": "ann@example.com", "plan_seen": "annual"])
            #expect(info.subscriberAttributes["$email"] == .init(value: "ann@example.com", updatedAt: start))
            info = try await backend.setAttributes(appUserId: "ann", ["plan_seen": nil])
            #expect(info.subscriberAttributes.keys.sorted() == ["$email"])
            await #expect(throws: AttributeRefusal.self) { try await backend.setAttributes(appUserId: "ann", ["$unknown": "x"]) }
            await #expect(throws: AttributeRefusal.self) {
                try await backend.setAttributes(appUserId: "ann", ["note": String(repeating: "x", count: 501)])
            }
            let many = Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", Optional("v")) })
            await #expect(throws: AttributeRefusal.self) { try await backend.setAttributes(appUserId: "ann", many) }
            #expect(try await backend.customerInfo(appUserId: "ann")?.subscriberAttributes.count == 1)   // the refused write left nothing

            // A monthly grant from 31 January runs to the end of February, as a calendar month does.
            let january31 = Int64(1_927_584_000_000)   // 2031-01-31T00:00:00Z
            clock.advance(byMs: january31 - clock.nowMs)
            info = try await backend.grantEntitlement(appUserId: "ann", entitlement: "pro", duration: .monthly, expiresMs: nil, bundleId: nil)
            let pro = try #require(info.entitlements["pro"])
            #expect(pro.isActive && pro.store == "promotional" && pro.expiresDate == january31 + 28 * Self.day)
            clock.advance(byMs: 29 * Self.day)
            #expect(try await backend.customerInfo(appUserId: "ann")?.entitlements["pro"]?.isActive == false)
            info = try await backend.grantEntitlement(appUserId: "ann", entitlement: "pro", duration: .lifetime, expiresMs: nil, bundleId: nil)
            #expect(info.entitlements["pro"]?.isActive == true && info.entitlements["pro"]?.expiresDate == nil)
            let revoked = try #require(try await backend.revokeGrants(appUserId: "ann", entitlement: "pro"))
            #expect(revoked.entitlements["pro"]?.isActive == false)
            #expect(try await backend.revokeGrants(appUserId: "nobody", entitlement: "pro") == nil)
            // As RevenueCat sends its promotional events: a purchase for each grant, a cancellation
            // for the one revoked while running (the monthly one had ended), store PROMOTIONAL.
            let events = try await backend.events(appUserId: "ann", limit: 100)
            #expect(events.map(\.type) == ["NON_RENEWING_PURCHASE", "NON_RENEWING_PURCHASE", "CANCELLATION"])
            #expect(events.allSatisfy { $0.store == "PROMOTIONAL" && $0.entitlementIds == ["pro"] })
            #expect(events.map(\.productId) == ["promotional.monthly", "promotional.lifetime", "promotional.lifetime"])
            await #expect(throws: GrantRefusal.self) {
                try await backend.grantEntitlement(appUserId: "ann", entitlement: "pro", duration: nil, expiresMs: january31, bundleId: nil)
            }

            // lastSeen: the app's reads are noted and saved in the background (each read above was one).
            clock.advance(byMs: 1_000)
            let readAt = clock.nowMs
            _ = try await backend.customerInfo(appUserId: "ann")
            await backend.lastSeen.flush()
            #expect(try await backend.customerInfo(appUserId: "ann")?.lastSeen == readAt)
        }
    }

    /// An app transaction as the store signs one (the fields Apple's AppTransaction carries).
    static func appTransaction(_ kit: SignedDataKit, version: String, firstDownload: Int64, signed: Int64,
                               receiptType: String = "Sandbox", bundleId: String? = nil) throws -> String {
        try kit.sign(["receiptType": receiptType, "bundleId": bundleId ?? kit.bundleId, "applicationVersion": "3.0",
                      "receiptCreationDate": signed, "requestDate": signed, "signedDate": signed,
                      "originalPurchaseDate": firstDownload, "originalApplicationVersion": version,
                      "appTransactionId": "7041234567890", "originalPlatform": "iOS"])
    }

    @Test(arguments: BackendTestEngine.all) func theAppTransactionGivesTheFirstDownloadAndFollowsAMerge(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let backend = test.backend
            let (t0, day) = (Self.t0, Self.day)
            // Posted by the device before log in; the newest signing wins, whatever the order.
            let newer = try Self.appTransaction(kit, version: "1.2", firstDownload: t0 - 400 * day, signed: t0)
            let older = try Self.appTransaction(kit, version: "1.1", firstDownload: t0 - 500 * day, signed: t0 - day)
            var info = try await backend.receiveAppTransaction(appUserId: "$RCAnonymousID:p", signedAppTransaction: newer)
            info = try await backend.receiveAppTransaction(appUserId: "$RCAnonymousID:p", signedAppTransaction: older)
            #expect(info.originalApplicationVersion == "1.2" && info.originalPurchaseDate == t0 - 400 * day)
            // Verified as Apple's verifyAndDecodeAppTransaction: another app's, another environment's are refused.
            await #expect(throws: SignedDataRejection.self) {
                try await backend.receiveAppTransaction(appUserId: "x", signedAppTransaction: try Self.appTransaction(
                    kit, version: "1", firstDownload: t0, signed: t0, bundleId: "com.other"))
            }
            await #expect(throws: SignedDataRejection.self) {
                try await backend.receiveAppTransaction(appUserId: "x", signedAppTransaction: try Self.appTransaction(
                    kit, version: "1", firstDownload: t0, signed: t0, receiptType: "Production"))
            }
            // Logged in: the first download is the customer's still.
            let login = try await backend.logIn(appUserId: "$RCAnonymousID:p", newAppUserId: "pat")
            #expect(login.customer.originalApplicationVersion == "1.2")
            #expect(try await backend.customerInfo(appUserId: "x") == nil, "a refused post makes no customer")
        }
    }

    @Test(arguments: BackendTestEngine.all) func unsubscribeAndRefundDatesAreShown(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let (t0, day) = (Self.t0, Self.day)
            let tx = kit.transaction(id: "500", original: "500", purchase: t0, expires: t0 + 30 * day, token: "6f1c1d4e-4444-4a6b-9c1d-5e8f000000ee")
            for (type, subtype, signed, renewal) in [
                ("SUBSCRIBED", "INITIAL_BUY", t0, kit.renewal(original: "500", signed: t0)),
                ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", t0 + 2 * day, kit.renewal(original: "500", autoRenew: false, signed: t0 + 2 * day)),
                ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", t0 + 3 * day, kit.renewal(original: "500", autoRenew: false, signed: t0 + 3 * day)),
            ] {
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try kit.notification(
                    type, subtype: subtype, signed: signed, transaction: tx, renewal: renewal))
            }
            var subscription = try #require(try await test.backend.customerInfo(appUserId: "6f1c1d4e-4444-4a6b-9c1d-5e8f000000ee")?.subscriptions.first)
            #expect(subscription.unsubscribeDetectedAt == t0 + 2 * day && subscription.refundedAt == nil && subscription.store == "app_store")
            var refunded = tx
            refunded["revocationDate"] = t0 + 4 * day
            refunded["revocationReason"] = 0
            refunded["signedDate"] = t0 + 4 * day
            _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try kit.notification(
                "REFUND", signed: t0 + 4 * day, transaction: refunded, renewal: nil))
            subscription = try #require(try await test.backend.customerInfo(appUserId: "6f1c1d4e-4444-4a6b-9c1d-5e8f000000ee")?.subscriptions.first)
            #expect(subscription.refundedAt == t0 + 4 * day)
        }
    }
}
