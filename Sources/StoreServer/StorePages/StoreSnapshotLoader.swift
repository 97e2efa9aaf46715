import Foundation
import StoreEngine
import StoreModel
import StoreViews

/// Fills a `StoreSnapshot` (all a page draws from) for one customer of one world by asking the
/// engine and mapping its types to StoreKit's. No rules here: who owns what, which status a
/// subscription has and who gets an intro offer are the engine's answers.
struct StoreSnapshotLoader {
    let store: AppStore

    /// The store's own pages for catalog texts the snapshot links to.
    struct PolicyPages {
        var terms: String
        var privacy: String
    }

    /// Throws `StoreError.worldNotFound` / `.appNotFound`; simulated StoreKit errors become the
    /// snapshot's failures, as a device would see them.
    func load(bundleId: String, customer: String, world: String, policyPages: PolicyPages) async throws -> StoreSnapshot {
        let app = try store.app(bundleId)
        let record = try await store.customer(customer, world: world)
        let storefront = Storefront.lookup(record?.storefront ?? app.catalog.settings.storefront) ?? .unitedStates
        let locale = record?.locale ?? app.catalog.settings.locale
        var snapshot = StoreSnapshot(
            products: Product.products(of: app.catalog, storefront: storefront, locale: locale),
            termsOfServiceURL: AppPolicyLinks.termsURL(app.catalog, customTermsURL: policyPages.terms),
            privacyPolicyURL: AppPolicyLinks.privacyURL(app.catalog, locale: locale, textURL: policyPages.privacy),
            customer: customer, now: Self.date(try await store.nowMs(world)))
        snapshot.productsFailure = await failure("Load Products", world: world)
        // Someone the store has never seen owns nothing and may take every intro offer; reading
        // further would create their records on a mere page view.
        guard record != nil else { return snapshot }

        let verified = !(try await store.simulatesVerificationFailure(world: world))
        let entitlements = try await store.transactions(bundleId: app.bundleId, customer: customer, scope: .entitlements, world: world)
        for signed in entitlements {
            snapshot.currentEntitlements[signed.payload.productId] = Self.result(Self.transaction(signed.payload), verified)
        }
        if let failure = await failure("Subscription Status", world: world) {
            snapshot.statusFailure = failure
        } else {
            let items = try await store.subscriptionStatuses(bundleId: app.bundleId, customer: customer, world: world)
            snapshot.subscriptionStatuses = Dictionary(grouping: items, by: \.groupId).mapValues { $0.map { Self.status($0, verified) } }
        }
        snapshot.introOfferEligibleGroups = try await store.introOfferEligibleGroups(bundleId: app.bundleId, customer: customer, world: world)
        if await failure("App Transaction", world: world) == nil {
            let signed = try await store.appTransaction(bundleId: app.bundleId, customer: customer, world: world)
            snapshot.appTransaction = AppTransaction(
                originalAppVersion: signed.payload.originalApplicationVersion, originalPurchaseDate: Self.date(signed.payload.originalPurchaseDate))
        }
        return snapshot
    }

    /// The simulated error the Transaction Manager set for a StoreKit API, as a page shows it.
    func failure(_ api: String, world: String) async -> StoreViewError? {
        do {
            try await store.checkSimulatedError(api, world: world)
            return nil
        } catch let error as StoreError {
            return StoreViewError(code: error.code, message: error.message)
        } catch {
            return StoreViewError(code: "unknown", message: "\(api) failed")
        }
    }

    static func date(_ ms: Int64) -> Date {
        Date(timeIntervalSince1970: Double(ms) / 1000)
    }

    static func result<T: Sendable>(_ value: T, _ verified: Bool) -> VerificationResult<T> {
        verified ? .verified(value) : .unverified(value, "the signature did not verify (simulated Verification error)")
    }

    static func transaction(_ payload: TransactionPayload) -> StoreViews.Transaction {
        StoreViews.Transaction(
            id: payload.transactionId, originalID: payload.originalTransactionId, productID: payload.productId,
            purchaseDate: date(payload.purchaseDate), expirationDate: payload.expiresDate.map(date),
            revocationDate: payload.revocationDate.map(date), isUpgraded: payload.isUpgraded ?? false,
            ownershipType: payload.inAppOwnershipType == .familyShared ? .familyShared : .purchased)
    }

    /// `Product.SubscriptionInfo.Status`: state raw values 1–5 are the Server API's status values.
    static func status(_ item: SubscriptionStatusItem, _ verified: Bool) -> Product.SubscriptionInfo.Status {
        let renewal = item.renewalInfo.payload
        return Product.SubscriptionInfo.Status(
            state: .init(rawValue: item.status.rawValue),
            transaction: result(transaction(item.transaction.payload), verified),
            renewalInfo: result(Product.SubscriptionInfo.RenewalInfo(
                willAutoRenew: renewal.autoRenewStatus == .on, autoRenewPreference: renewal.autoRenewProductId,
                renewalDate: renewal.renewalDate.map(date)), verified))
    }
}
