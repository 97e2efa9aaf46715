import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import StoreSigning
import Testing

/// A catalog with every kind of subscription offer, and shareable products for Family Sharing.
let offerCatalogJSON = fixtureCatalog("offers")

let offerBundle = "com.example.offers"

func makeOfferStore(clock: TestClock = TestClock()) async throws -> AppStore {
    try await makeStore(clock: clock, apps: [
        try StoreApp(bundleId: offerBundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: offerCatalogJSON),
    ])
}

func offerPurchase(_ product: String, _ customer: String, token: String? = nil) -> PurchaseRequest {
    PurchaseRequest(bundleId: offerBundle, productId: product, customer: customer, appAccountToken: token)
}

/// Throws the expected offer error code, or fails.
func expectOfferError(_ code: String, _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected \(code), but it succeeded")
    } catch let error as OfferError {
        #expect(error.code == code, "\(error.message)")
    } catch {
        Issue.record("expected \(code), got \(error)")
    }
}

@Suite(.removesTemporaryFolders) struct PromotionalOfferTests {
    /// A lapsed subscriber (subscribed, then expired), and the app's In-App Purchase key.
    func lapsedSubscriber(_ store: AppStore) async throws -> GeneratedAPIKey {
        let first = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"))
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: first.transaction!.payload.transactionId)
        return try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: offerBundle)
    }

    func signedV1(_ key: GeneratedAPIKey, clock: TestClock, offerId: String = "promo.half", product: String = "o.monthly",
                  nonce: UUID = UUID(), token: String = "", ageMs: Int64 = 0) throws -> PurchaseOfferRequest {
        let timestamp = Int64(clock.now().timeIntervalSince1970 * 1000) - ageMs
        let signature = try PromotionalOfferSignature.sign(
            privateKeyP8: key.privateKeyP8, bundleId: offerBundle, keyId: key.key.keyId, productId: product, offerId: offerId,
            appAccountToken: token, nonce: nonce, timestamp: timestamp)
        return .promotional(.init(offerID: offerId, keyID: key.key.keyId, nonce: nonce.uuidString.lowercased(), signature: signature, timestamp: timestamp))
    }

    @Test func signedOfferResubscribesAPastSubscriberAtTheOfferPrice() async throws {
        let clock = TestClock()
        let store = try await makeOfferStore(clock: clock)
        let key = try await lapsedSubscriber(store)
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let outcome = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice", token: token), offer: try signedV1(key, clock: clock, token: token))
        let t = try #require(outcome.transaction?.payload)
        #expect(t.offerType == .promotional)
        #expect(t.offerIdentifier == "promo.half")
        #expect(t.offerDiscountType == .payAsYouGo)
        #expect(t.price == 2490)
        #expect(outcome.renewalInfo?.payload.offerIdentifier == "promo.half")  // two more offer periods to come
        let events = try await store.world(AppStore.defaultWorld).events()
        // Apple's notificationType page: "Customer redeems a promotional offer, offer code, or win-back
        // offer after their subscription expired." → SUBSCRIBED / RESUBSCRIBE (changelog, 2024-01-23).
        #expect(events.last?.type == "SUBSCRIBED" && events.last?.subtype == "RESUBSCRIBE")
    }

    @Test func jwsOfferIsAcceptedAndItsClaimsChecked() async throws {
        let clock = TestClock()
        let store = try await makeOfferStore(clock: clock)
        let key = try await lapsedSubscriber(store)
        let jws = try PromotionalOfferV2Signature.sign(
            privateKeyP8: key.privateKeyP8, keyId: key.key.keyId, issuerId: key.key.issuerId, bundleId: offerBundle,
            productId: "o.monthly", offerIdentifier: "promo.half", issuedAt: clock.now())
        let outcome = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotionalJWS(jws))
        #expect(outcome.transaction?.payload.offerIdentifier == "promo.half")

        // The same JWS again: its nonce is spent.
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: outcome.transaction!.payload.transactionId)
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotionalJWS(jws))
        }
        // Signed for another product.
        let other = try PromotionalOfferV2Signature.sign(
            privateKeyP8: key.privateKeyP8, keyId: key.key.keyId, issuerId: key.key.issuerId, bundleId: offerBundle,
            productId: "o.premium", offerIdentifier: "promo.half", issuedAt: clock.now())
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotionalJWS(other))
        }
        // A transactionId claim that isn't the customer's.
        let foreign = try PromotionalOfferV2Signature.sign(
            privateKeyP8: key.privateKeyP8, keyId: key.key.keyId, issuerId: key.key.issuerId, bundleId: offerBundle,
            productId: "o.monthly", offerIdentifier: "promo.half", transactionId: "1", issuedAt: clock.now())
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotionalJWS(foreign))
        }
    }

    @Test func badSignaturesUnknownOffersReusedNoncesAndStaleTimestampsAreRefused() async throws {
        let clock = TestClock()
        let store = try await makeOfferStore(clock: clock)
        let key = try await lapsedSubscriber(store)

        // Tampered: signed for one app account token, sent with another.
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice", token: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
                                         offer: try signedV1(key, clock: clock))
        }
        // Tampered signature bytes.
        if case .promotional(var fields) = try signedV1(key, clock: clock) {
            var bytes = Array(Data(base64Encoded: fields.signature!)!)
            bytes[bytes.count - 1] ^= 0x01
            fields.signature = Data(bytes).base64EncodedString()
            await expectOfferError("invalidOfferSignature") {
                _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotional(fields))
            }
        }
        await expectOfferError("invalidOfferIdentifier") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: try signedV1(key, clock: clock, offerId: "nope"))
        }
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: try signedV1(key, clock: clock, ageMs: 24 * 3_600_000 + 1))
        }
        await expectOfferError("missingOfferParameters") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotional(.init(offerID: "promo.half", keyID: nil, nonce: nil, signature: nil, timestamp: nil)))
        }
        // A key of another world is not this app's key here.
        _ = try await store.createWorld("elsewhere")
        let foreignKey = try await store.world("elsewhere").createAPIKey(bundleId: offerBundle)
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: try signedV1(foreignKey, clock: clock))
        }

        // A good one goes through once; its nonce never again.
        let nonce = UUID()
        let good = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: try signedV1(key, clock: clock, nonce: nonce))
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: good.transaction!.payload.transactionId)
        await expectOfferError("invalidOfferSignature") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: try signedV1(key, clock: clock, nonce: nonce))
        }
    }

    @Test func promotionalOffersAreForCurrentOrPastSubscribersOnly() async throws {
        let clock = TestClock()
        let store = try await makeOfferStore(clock: clock)
        let key = try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: offerBundle)
        await expectOfferError("ineligibleForOffer") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "newbie"), offer: try signedV1(key, clock: clock))
        }
        // The testing form needs no signature, but says so.
        #expect(throws: OfferError.self) {
            _ = try PurchaseOfferRequest.from(promotionalOfferID: "promo.half")
        }
        let testing = try #require(try PurchaseOfferRequest.from(promotionalOfferID: "promo.half", testing: true))
        await expectOfferError("ineligibleForOffer") { _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "newbie"), offer: testing) }
    }

    @Test func aCurrentSubscribersOfferStartsAtTheNextRenewal() async throws {
        let clock = TestClock()
        let store = try await makeOfferStore(clock: clock)
        let first = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"))  // a free week
        let redeemed = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .promotionalTesting(offerId: "promo.half"))
        #expect(redeemed.transaction?.payload.transactionId == first.transaction?.payload.transactionId)
        #expect(redeemed.renewalInfo?.payload.offerIdentifier == "promo.half")
        #expect(redeemed.renewalInfo?.payload.renewalPrice == 2490)
        let events = try await store.world(AppStore.defaultWorld).events()
        #expect(events.last?.type == "OFFER_REDEEMED" && events.last?.subtype == nil)

        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 8 * 86_400_000)
        let all = try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: "alice", scope: .all)
        let renewal = try #require(all.last?.payload)
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.offerType == .promotional && renewal.offerIdentifier == "promo.half" && renewal.price == 2490)
    }

    @Test func anOfferForAHigherLevelUpgradesAtOnce() async throws {
        let store = try await makeOfferStore()
        let first = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"))
        let upgraded = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.premium", "alice"), offer: .promotionalTesting(offerId: "premium.promo"))
        let t = try #require(upgraded.transaction?.payload)
        #expect(t.productId == "o.premium" && t.offerIdentifier == "premium.promo" && t.price == 4990)
        #expect(t.originalTransactionId == first.transaction?.payload.originalTransactionId)
        let events = try await store.world(AppStore.defaultWorld).events()
        #expect(events.last?.type == "OFFER_REDEEMED" && events.last?.subtype == "UPGRADE")
        let old = try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: "alice", scope: .all).first
        #expect(old?.payload.isUpgraded == true)
    }
}

@Suite(.removesTemporaryFolders) struct OfferCodeTests {
    @Test func customCodesStopAtTheirRedemptionLimit() async throws {
        let store = try await makeOfferStore()
        let made = try await store.world(AppStore.defaultWorld).createOfferCodes(.init(offer: "WELCOME", codes: ["spring26"], maxRedemptions: 2), bundleId: offerBundle)
        #expect(made.map(\.code) == ["SPRING26"])
        let outcome = try await store.world(AppStore.defaultWorld).redeemOfferCode("Spring26", bundleId: offerBundle, customer: "a")
        let t = try #require(outcome.transaction?.payload)
        #expect(t.offerType == .offerCode && t.offerIdentifier == "WELCOME" && t.offerDiscountType == .freeTrial && t.price == 0)
        let events = try await store.world(AppStore.defaultWorld).events()
        // Apple's notificationType page: "Customer redeems an offer code to subscribe for the first
        // time." → SUBSCRIBED / INITIAL_BUY (changelog, 2024-01-23); the offer shows in offerType.
        #expect(events.last?.type == "SUBSCRIBED" && events.last?.subtype == "INITIAL_BUY")

        await expectOfferError("ineligibleForOffer") {  // a code is redeemed once per customer (and "a" is now existing)
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode("SPRING26", bundleId: offerBundle, customer: "a")
        }
        _ = try await store.world(AppStore.defaultWorld).redeemOfferCode("SPRING26", bundleId: offerBundle, customer: "b")
        await expectOfferError("offerCodeRedemptionLimitReached") {
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode("SPRING26", bundleId: offerBundle, customer: "c")
        }
        let listed = try await store.world(AppStore.defaultWorld).offerCodes(bundleId: offerBundle)
        #expect(listed.first?.redemptions == 2 && listed.first?.maxRedemptions == 2)
        await expectOfferError("invalidOfferCode") {
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode("NOSUCHCODE", bundleId: offerBundle, customer: "c")
        }
    }

    @Test func oneTimeCodesAreRedeemedOnceAndExpireOnTheWorldClock() async throws {
        let store = try await makeOfferStore()
        let now = try await store.world(AppStore.defaultWorld).nowMs()
        let codes = try await store.world(AppStore.defaultWorld).createOfferCodes(.init(offer: "CO1", count: 3, expiresAt: now + 86_400_000), bundleId: offerBundle)
        #expect(codes.count == 3)
        #expect(codes.allSatisfy { $0.code.count == 18 && $0.maxRedemptions == 1 && $0.kind == "oneTime" })
        _ = try await store.world(AppStore.defaultWorld).redeemOfferCode(codes[0].code, bundleId: offerBundle, customer: "a")
        await expectOfferError("offerCodeRedemptionLimitReached") {
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode(codes[0].code, bundleId: offerBundle, customer: "b")
        }
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 86_400_000)
        await expectOfferError("offerCodeExpired") {
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode(codes[1].code, bundleId: offerBundle, customer: "b")
        }
    }

    @Test func codeEligibilityFollowsTheOffersCohorts() async throws {
        let store = try await makeOfferStore()
        _ = try await store.world(AppStore.defaultWorld).createOfferCodes(.init(offer: "LOYAL", codes: ["LOYAL1"]), bundleId: offerBundle)
        await expectOfferError("ineligibleForOffer") {  // "existing" only; a new customer isn't
            _ = try await store.world(AppStore.defaultWorld).redeemOfferCode("LOYAL1", bundleId: offerBundle, customer: "newbie")
        }
        // A subscriber redeems it: it starts at the next renewal, for the whole 3 months, paid up front.
        let first = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "sub"))
        let outcome = try await store.world(AppStore.defaultWorld).redeemOfferCode("LOYAL1", bundleId: offerBundle, customer: "sub")
        #expect(outcome.transaction?.payload.transactionId == first.transaction?.payload.transactionId)
        #expect(outcome.renewalInfo?.payload.offerType == .offerCode && outcome.renewalInfo?.payload.renewalPrice == 9990)

        // The testing shortcut checks the same cohorts.
        await expectOfferError("ineligibleForOffer") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "sub"), offer: .codeTesting(referenceName: "WELCOME"))
        }
        let fresh = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "fresh"), offer: .codeTesting(referenceName: "WELCOME"))
        #expect(fresh.transaction?.payload.offerIdentifier == "WELCOME")
    }
}

@Suite(.removesTemporaryFolders) struct WinBackOfferTests {
    @Test func winBackOffersAreForLapsedSubscribersOnly() async throws {
        let store = try await makeOfferStore()
        await expectOfferError("ineligibleForOffer") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .winBack(offerId: "wb.free"))
        }
        let first = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"))
        await expectOfferError("ineligibleForOffer") {  // still subscribed
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .winBack(offerId: "wb.free"))
        }
        let expired = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: first.transaction!.payload.transactionId)
        #expect(expired.payload.eligibleWinBackOfferIds == ["wb.free"])
        await expectOfferError("invalidOfferIdentifier") {
            _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .winBack(offerId: "wb.other"))
        }
        let back = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "alice"), offer: .winBack(offerId: "wb.free"))
        let t = try #require(back.transaction?.payload)
        #expect(t.offerType == .winBack && t.offerIdentifier == "wb.free" && t.price == 0)
        #expect(t.originalTransactionId == first.transaction?.payload.originalTransactionId)
        let events = try await store.world(AppStore.defaultWorld).events()
        // Apple's notificationType page: "Customer redeems a promotional offer, offer code, or win-back
        // offer after their subscription expired." → SUBSCRIBED / RESUBSCRIBE (changelog, 2024-01-23).
        #expect(events.last?.type == "SUBSCRIBED" && events.last?.subtype == "RESUBSCRIBE")
    }
}
