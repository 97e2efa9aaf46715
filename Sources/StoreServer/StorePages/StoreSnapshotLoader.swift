import Foundation
import StoreEngine
import StoreKitTypes
import StoreModel
import StoreViews

/// Fills a `StoreSnapshot` (all a page draws from) for one customer of one world by asking the
/// engine. No rules here: who owns what, which status a subscription has and who gets an intro
/// offer are the engine's answers. Values are StoreKit's (StoreKitTypes), built from the very
/// listing and signed payloads the device API hands the client library, so a custom style sees
/// every field an app sees (`environment`, `appAccountToken`, `offer`, renewal dates, …).
struct StoreSnapshotLoader {
    let store: StoreEngine.AppStore

    /// The store's own pages for catalog texts the snapshot links to.
    struct PolicyPages {
        var terms: String
        var privacy: String
    }

    /// Throws `StoreError.worldNotFound` / `.appNotFound`; simulated StoreKit errors become the
    /// snapshot's failures, as a device would see them.
    func load(bundleId: String, customer: String, world: String, policyPages: PolicyPages) async throws -> StoreSnapshot {
        let app = try store.app(bundleId)
        let record = try await store.world(world).customer(customer)
        let storefront = record.flatMap { StoreModel.Storefront.lookup($0.storefront) == nil ? nil : $0.storefront }
        let locale = record?.locale ?? app.catalog.settings.locale
        let (_, listing) = try store.products(bundleId: bundleId, storefront: storefront, locale: locale, ids: nil)
        var snapshot = StoreSnapshot(
            products: Product.products(listed: listing),
            termsOfServiceURL: AppPolicyLinks.termsURL(app.catalog, customTermsURL: policyPages.terms),
            privacyPolicyURL: AppPolicyLinks.privacyURL(app.catalog, locale: locale, textURL: policyPages.privacy),
            customer: customer, now: Date(timeIntervalSince1970: Double(try await store.world(world).nowMs()) / 1000))
        snapshot.productsFailure = await failure("Load Products", world: world)
        // Someone the store has never seen owns nothing and may take every intro offer; reading
        // further would create their records on a mere page view.
        guard record != nil else { return snapshot }

        let verified = !(try await store.world(world).simulatesVerificationFailure())
        let entitlements = try await store.world(world).transactions(bundleId: app.bundleId, customer: customer, scope: .entitlements)
        for signed in entitlements {
            snapshot.currentEntitlements[signed.payload.productId] = Self.transaction(signed, verified)
        }
        if let failure = await failure("Subscription Status", world: world) {
            snapshot.statusFailure = failure
        } else {
            let items = try await store.world(world).subscriptionStatuses(bundleId: app.bundleId, customer: customer)
            snapshot.subscriptionStatuses = Dictionary(grouping: items, by: \.groupId).mapValues { $0.map { Self.status($0, verified) } }
        }
        snapshot.introOfferEligibleGroups = try await store.world(world).introOfferEligibleGroups(bundleId: app.bundleId, customer: customer)
        if await failure("App Transaction", world: world) == nil {
            let signed = try await store.world(world).appTransaction(bundleId: app.bundleId, customer: customer)
            snapshot.appTransaction = AppTransaction(payload: signed.payload, jws: signed.jws)
        }
        return snapshot
    }

    /// The simulated error the Transaction Manager set for a StoreKit API, as a page shows it.
    func failure(_ api: String, world: String) async -> StoreViewError? {
        do {
            try await store.world(world).checkSimulatedError(api)
            return nil
        } catch let error as StoreError {
            return StoreViewError(code: error.code, message: error.message)
        } catch {
            return StoreViewError(code: "unknown", message: "\(api) failed")
        }
    }

    /// A signed value as a device receives it: with the Transaction Manager's simulated
    /// verification failure, the JWS is corrupted exactly as the device API corrupts it, and the
    /// verdict is the one the client library reaches on it (`.invalidSignature`).
    static func result<T: Sendable>(_ jws: String, _ verified: Bool, _ make: (String) -> T) -> VerificationResult<T> {
        verified ? .verified(make(jws)) : .unverified(make(VerificationFault.apply(jws, true)), .invalidSignature)
    }

    static func transaction(_ signed: Signed<TransactionPayload>, _ verified: Bool) -> VerificationResult<Transaction> {
        result(signed.jws, verified) { Transaction(payload: signed.payload, jws: $0) }
    }

    /// `Product.SubscriptionInfo.Status`: state raw values 1–5 are the Server API's status values.
    static func status(_ item: SubscriptionStatusItem, _ verified: Bool) -> Product.SubscriptionInfo.Status {
        Product.SubscriptionInfo.Status(
            state: .init(rawValue: item.status.rawValue),
            transaction: transaction(item.transaction, verified),
            renewalInfo: result(item.renewalInfo.jws, verified) {
                Product.SubscriptionInfo.RenewalInfo(payload: item.renewalInfo.payload, jws: $0)
            })
    }
}
