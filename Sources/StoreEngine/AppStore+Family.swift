/// A customer's family group as the admin API shows it.
public struct FamilyMembership: Codable, Sendable, Equatable {
    /// The customer asked about.
    public var customer: String
    /// Nil when the customer is in no family group.
    public var group: String?
    /// Everyone in the customer's family group, the customer included, sorted; empty without a group.
    public var members: [String]
}

extension AppStore {
    func joinFamily(customer: String, group: String, world: String) async throws -> FamilyMembership {
        let members = try await self.loadedWorld(world).joinFamily(customer, group: group)
        return FamilyMembership(customer: customer, group: group, members: members)
    }

    func leaveFamily(customer: String, world: String) async throws -> FamilyMembership {
        try await self.loadedWorld(world).leaveFamily(customer)
        return FamilyMembership(customer: customer, group: nil, members: [])
    }

    func family(of customer: String, world: String) async throws -> FamilyMembership {
        let found = try await self.loadedWorld(world).familyGroup(of: customer)
        return FamilyMembership(customer: customer, group: found?.group, members: found?.members ?? [])
    }
}
