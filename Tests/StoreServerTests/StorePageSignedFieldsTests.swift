import AsyncHTTPClient
import Foundation
import StoreEngine
import StoreKitTypes
import StoreModel
import StoreTestSupport
import StoreViews
import Testing

/// A custom `ProductViewStyle` that shows what StoreKit's types carry for the subscriber: the
/// style gets the status as a stored property, as a SwiftUI style would from its view's
/// `subscriptionStatusTask`.
struct SubscriberFieldsStyle: ProductViewStyle {
    let status: Product.SubscriptionInfo.Status?

    static func ms(_ date: Date?) -> String { date.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? "nil" }

    func lines() -> [String] {
        guard let status else { return ["no status"] }
        let transaction = status.transaction.unsafePayloadValue
        let renewal = status.renewalInfo.unsafePayloadValue
        let verdict: String = switch status.transaction {
        case .verified: "verified"
        case .unverified(_, let error): "unverified \(error)"
        }
        return [
            "state=\(status.state)", "verdict=\(verdict)", "id=\(transaction.id)", "originalID=\(transaction.originalID)",
            "environment=\(transaction.environment.rawValue)",
            "appAccountToken=\(transaction.appAccountToken?.uuidString.lowercased() ?? "nil")",
            "offerType=\(transaction.offer?.type.rawValue ?? 0)", "offerMode=\(transaction.offer?.paymentMode?.rawValue ?? "nil")",
            "offerPeriod=\(transaction.offer?.period.map { "\($0.value) \($0.unit)" } ?? "nil")",
            "storefront=\(transaction.storefront.countryCode)", "price=\(transaction.price.map { "\($0)" } ?? "nil")",
            "currency=\(transaction.currency?.identifier ?? "nil")", "reason=\(transaction.reason.rawValue)",
            "revocationDate=\(Self.ms(transaction.revocationDate))", "revocationReason=\(transaction.revocationReason?.rawValue ?? -1)",
            "expirationDate=\(Self.ms(transaction.expirationDate))",
            "recentSubscriptionStartDate=\(Self.ms(renewal.recentSubscriptionStartDate))",
            "renewalDate=\(Self.ms(renewal.renewalDate))", "willAutoRenew=\(renewal.willAutoRenew)",
            "renewalAppAccountToken=\(renewal.appAccountToken?.uuidString.lowercased() ?? "nil")",
            "jws=\(status.transaction.jwsRepresentation)",
        ]
    }

    func makeBody(configuration: Configuration) -> some View {
        VStack {
            Text(configuration.product?.displayName ?? "Loading")
            ForEach(lines(), id: \.self) { Text($0) }
        }
    }
}

/// The page holds the status (the talk's "lift the state up" pattern) and hands it to the style.
struct SubscriberFieldsPage: View {
    @State var status: EntitlementTaskState<[Product.SubscriptionInfo.Status]> = .loading
    var body: some View {
        ProductView(id: "p.gold")
            .productViewStyle(SubscriberFieldsStyle(status: status.value?.first))
            .subscriptionStatusTask(for: "G") { status = $0 }
    }
}

/// Issue 16 §4 ("Custom styles see every field") and DESIGN.md's one set of types: a store page's
/// custom style reads StoreKit's `Transaction` and `RenewalInfo` decoded from the store's signed
/// payloads, with the fields an app sees through the client library.
@Suite(.serialized, .removesTemporaryFolders) struct StorePageSignedFieldsTests {
    static let bundle = "com.example.storefields"
    static let pages = [
        StorePage(id: "fields", bundleId: bundle, title: "Fields") { AnyView(SubscriberFieldsPage()) },
    ]

    func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await withStorePages([
            try StoreApp(bundleId: Self.bundle, appAppleId: 45, environment: .sandbox, name: "Fields", catalogJSON: storePagesCatalogJSON),
        ], Self.pages) { server, _ in try await body(server) }
    }

    func page(_ server: LiveServer) async throws -> String {
        let answer = try await server.request(.GET, "/store/fields?customer=fern")
        #expect(answer.status == 200)
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test func aCustomStyleShowsTheSignedFieldsOfAPurchasedSubscription() async throws {
        try await withServer { server in
            let token = "5b1c4e9a-7d2f-4a61-9c3e-2f8d6b0a1e44"
            let outcome = try await server.store.world(AppStore.defaultWorld).purchase(
                PurchaseRequest(bundleId: Self.bundle, productId: "p.gold", customer: "fern", appAccountToken: token), offer: nil)
            let signed = try #require(outcome.transaction)
            let html = try await page(server)
            // Every value below comes from the signed payloads, not from the catalog.
            #expect(html.contains("state=subscribed"))
            #expect(html.contains("verdict=verified"))
            #expect(html.contains("id=\(signed.payload.transactionId)") && html.contains("originalID=\(signed.payload.originalTransactionId)"))
            #expect(html.contains("environment=Sandbox"))
            #expect(html.contains("appAccountToken=\(token)") && html.contains("renewalAppAccountToken=\(token)"))
            #expect(html.contains("offerType=1"), "the free week is the introductory offer (Transaction.OfferType 1)")
            #expect(html.contains("offerMode=FREE_TRIAL") && html.contains("offerPeriod=1 week"))
            #expect(html.contains("storefront=USA") && html.contains("currency=USD") && html.contains("price=0"))
            #expect(html.contains("reason=PURCHASE") && html.contains("revocationDate=nil"))
            #expect(html.contains("expirationDate=\(signed.payload.expiresDate ?? -1)"))
            #expect(html.contains("recentSubscriptionStartDate=\(signed.payload.purchaseDate)"),
                    "a first subscription's recent start is its purchase")
            #expect(html.contains("renewalDate=\(signed.payload.expiresDate ?? -1)") && html.contains("willAutoRenew=true"))
            #expect(html.contains("jws=\(signed.jws)"), "the style can hand the JWS to a server, as jwsRepresentation")
        }
    }

    @Test func aRefundShowsItsRevocationAndASimulatedFailureIsUnverified() async throws {
        try await withServer { server in
            let outcome = try await server.store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: Self.bundle, productId: "p.gold", customer: "fern"), offer: nil)
            let signed = try #require(outcome.transaction)
            let refunded = try await server.store.world(AppStore.defaultWorld).refund(transactionId: signed.payload.transactionId)
            var html = try await page(server)
            #expect(html.contains("state=revoked"))
            #expect(html.contains("revocationDate=\(try #require(refunded.payload.revocationDate))"))
            #expect(html.contains("revocationReason=0"), "Transaction.RevocationReason.other")
            #expect(html.contains("appAccountToken=nil"))

            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "Verification", error: "invalidSignature")
            html = try await page(server)
            #expect(html.contains("verdict=unverified invalidSignature"), "as the client library's verifier decides on the same JWS")
            #expect(!html.contains("jws=\(refunded.jws)"), "the JWS is corrupted as the device API corrupts it")
        }
    }
}
