import Foundation
import StoreKitTypes

/// Everything a store page draws from, read once per render: the products of the customer's
/// storefront and what the customer owns. Views never reach storage; the server fills this in.
public struct StoreSnapshot: Sendable {
    /// Products sold in the storefront, in catalog order.
    public var products: [Product]
    /// Catalog product IDs that exist but aren't sold in this storefront.
    public var unavailableProductIDs: Set<String>
    /// Set when loading products failed (a simulated "Load Products" error).
    public var productsFailure: StoreViewError?
    /// `Transaction.currentEntitlements`, keyed by product ID.
    public var currentEntitlements: [String: VerificationResult<Transaction>]
    /// `Product.SubscriptionInfo.status(for:)`, keyed by subscription group ID.
    public var subscriptionStatuses: [String: [Product.SubscriptionInfo.Status]]
    /// Set when loading subscription statuses failed; `subscriptionStatusTask` then reports the failure.
    public var statusFailure: StoreViewError?
    /// Groups in which the customer may still get an introductory offer.
    public var introOfferEligibleGroups: Set<String>
    /// The customer's `AppTransaction`, e.g. to check which app version they first bought.
    public var appTransaction: AppTransaction?
    /// `appPolicies` of the catalog: terms (EULA) and privacy policy links.
    public var termsOfServiceURL: String?
    /// The catalog's privacy policy link, used unless `subscriptionStorePolicyDestination` replaces it.
    public var privacyPolicyURL: String?
    /// Who is signed in (the demo pages' customer picker chooses).
    public var customer: String?
    /// The store clock of the customer's world.
    public var now: Date
    /// The offering a subscription backend serves this customer, when the store was given a source
    /// of them (`openstore serve` wires its backend's `GET /v1/customers/{id}/offerings`); nil otherwise.
    public var offering: RemoteOffering? = nil

    /// A snapshot of the given data; unless told otherwise, the customer is eligible for every group's intro offer.
    public init(products: [Product], unavailableProductIDs: Set<String> = [], productsFailure: StoreViewError? = nil,
                currentEntitlements: [String: VerificationResult<Transaction>] = [:],
                subscriptionStatuses: [String: [Product.SubscriptionInfo.Status]] = [:], statusFailure: StoreViewError? = nil,
                introOfferEligibleGroups: Set<String>? = nil, appTransaction: AppTransaction? = nil,
                termsOfServiceURL: String? = nil, privacyPolicyURL: String? = nil, customer: String? = nil, now: Date = Date()) {
        self.products = products
        self.unavailableProductIDs = unavailableProductIDs
        self.productsFailure = productsFailure
        self.currentEntitlements = currentEntitlements
        self.subscriptionStatuses = subscriptionStatuses
        self.statusFailure = statusFailure
        self.introOfferEligibleGroups = introOfferEligibleGroups
            ?? Set(products.compactMap { $0.subscription?.subscriptionGroupID })
        self.appTransaction = appTransaction
        self.termsOfServiceURL = termsOfServiceURL
        self.privacyPolicyURL = privacyPolicyURL
        self.customer = customer
        self.now = now
    }

    /// The storefront's product with this ID, or nil when it isn't sold here.
    public func product(_ id: String) -> Product? {
        products.first { $0.id == id }
    }

    /// The state `storeProductTask(for:)` reports for an ID.
    public func taskState(for id: String) -> Product.TaskState {
        if let failure = productsFailure { return .failure(failure) }
        if let product = product(id) { return .success(product) }
        return .unavailable
    }

    /// The state `storeProductsTask(for:)` reports: the products found, the missing IDs as unavailable.
    public func collectionState(for ids: some Collection<String>) -> Product.CollectionTaskState {
        if let failure = productsFailure { return .failure(failure) }
        var found: [Product] = []
        var missing: [String] = []
        for id in ids {
            if let product = product(id) { found.append(product) } else { missing.append(id) }
        }
        return .success(found, unavailable: missing)
    }

    /// Whether the customer holds a current entitlement to the product (owned or subscribed).
    public func hasCurrentEntitlement(_ id: String) -> Bool {
        currentEntitlements[id] != nil
    }

    /// The status in the group that gives access, or else the latest one.
    public func activeStatus(group: String) -> Product.SubscriptionInfo.Status? {
        let list = subscriptionStatuses[group] ?? []
        return list.first { $0.state.isActive } ?? list.first
    }

    /// Whether the customer may still get an introductory offer in the group.
    public func isEligibleForIntroOffer(group: String) -> Bool {
        introOfferEligibleGroups.contains(group)
    }

    /// The product's win-back offers the customer may redeem, best first: those its group's
    /// renewal info lists in `eligibleWinBackOfferIDs` ("sorted with the best offers first";
    /// the App Store lists them only for a churned subscription, never in grace or billing retry).
    public func eligibleWinBackOffers(for product: Product) -> [Product.SubscriptionOffer] {
        guard let info = product.subscription else { return [] }
        let eligible = (subscriptionStatuses[info.subscriptionGroupID] ?? [])
            .lazy.map(\.renewalInfo.unsafePayloadValue.eligibleWinBackOfferIDs).first { !$0.isEmpty } ?? []
        return eligible.compactMap { id in info.winBackOffers.first { $0.id == id } }
    }
}
