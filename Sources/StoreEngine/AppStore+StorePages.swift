import StoreModel

/// What the web store pages (`/store`) read beyond the device API: a page shows "Try it free"
/// only where StoreKit would apply the intro offer, and its customer picker lists the world's
/// customers. Read-only; the rules stay in `Rules/`.
extension AppStore {
    func introOfferEligibleGroups(bundleId: String, customer: String, world: String) async throws -> Set<String> {
        let app = try app(bundleId)
        let groups = Set(app.catalog.products.compactMap { $0.subscription?.groupID })
        let history = try await self.loadedWorld(world).purchaseHistory(bundleId: app.bundleId, customer: customer)
        return groups.filter { OfferEligibility.isEligibleForIntroOffer(groupId: $0, history: history) }
    }

    func knownCustomers(world: String) async throws -> [String] {
        let world = try await self.loadedWorld(world)
        let stored = try await database.customerNames(world: world.id)
        return Set(stored).union(await world.knownCustomerNames()).sorted()
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
