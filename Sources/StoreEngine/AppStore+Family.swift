/// A customer's family group as the admin API shows it.
public struct FamilyMembership: Codable, Sendable, Equatable {
    public var customer: String
    /// Nil when the customer is in no family group.
    public var group: String?
    public var members: [String]
}

extension AppStore {
    /// Puts the customer in a family group (created by its first member; at most six people).
    /// Shareable purchases are shared both ways at once.
    public func joinFamily(customer: String, group: String, world: String = AppStore.defaultWorld) async throws -> FamilyMembership {
        let members = try await self.world(world).joinFamily(customer, group: group)
        return FamilyMembership(customer: customer, group: group, members: members)
    }

    /// Takes the customer out of their family group; shared access ends both ways.
    public func leaveFamily(customer: String, world: String = AppStore.defaultWorld) async throws -> FamilyMembership {
        try await self.world(world).leaveFamily(customer)
        return FamilyMembership(customer: customer, group: nil, members: [])
    }

    public func family(of customer: String, world: String = AppStore.defaultWorld) async throws -> FamilyMembership {
        let found = try await self.world(world).familyGroup(of: customer)
        return FamilyMembership(customer: customer, group: found?.group, members: found?.members ?? [])
    }
}
