import StoreModel

/// What the web store pages (`/store`) read beyond the device API: a page shows "Try it free"
/// only where StoreKit would apply the intro offer, and its customer picker lists the world's
/// customers. Read-only; the rules stay in `Rules/`.
extension AppStore {
    /// The app's subscription groups in which the customer would still get an introductory offer,
    /// by the same rule a purchase applies (`OfferEligibility.isEligibleForIntroOffer`).
    public func introOfferEligibleGroups(bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> Set<String> {
        let app = try app(bundleId)
        let groups = Set(app.catalog.products.compactMap { $0.subscription?.groupID })
        let history = try await self.world(world).purchaseHistory(bundleId: app.bundleId, customer: customer)
        return groups.filter { OfferEligibility.isEligibleForIntroOffer(groupId: $0, history: history) }
    }

    /// Names of the world's customers the store has met since it started (created, looked up or
    /// purchasing), sorted. Customers stored by an earlier run appear once they are used again.
    public func knownCustomers(world: String = AppStore.defaultWorld) async throws -> [String] {
        try await self.world(world).knownCustomerNames()
    }
}

extension World {
    /// The customer's history as the purchase path sees it: due events applied, family shares loaded.
    func purchaseHistory(bundleId: String, customer: String) async throws -> [OwnedTransaction] {
        try await ensureFamiliesLoaded()
        try await catchUp()
        return try await history(CustomerKey(bundleId: bundleId, customer: customer))
    }

    func knownCustomerNames() -> [String] {
        customers.keys.sorted()
    }
}
