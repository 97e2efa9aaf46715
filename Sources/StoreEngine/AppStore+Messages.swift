import Foundation
import StoreStorage

extension AppStore {
    func messages(bundleId: String, customer: String, world: String) async throws -> [StoreMessage] {
        let app = try app(bundleId)
        return try await self.loadedWorld(world).waitingMessages(bundleId: app.bundleId, customer: customer)
    }

    func displayMessage(_ id: String, bundleId: String, customer: String, world: String) async throws -> StoreMessage {
        let app = try app(bundleId)
        return try await self.loadedWorld(world).displayMessage(id, bundleId: app.bundleId, customer: customer)
    }

    func queueMessage(_ reason: StoreMessage.Reason = .generic, bundleId: String, customer: String, world: String) async throws -> StoreMessage {
        let app = try app(bundleId)
        try Self.checkCustomerName(customer)
        let world = try await self.loadedWorld(world)
        return try await world.queueStandaloneMessage(reason, bundleId: app.bundleId, customer: customer)
    }
}

extension World {
    func queueStandaloneMessage(_ reason: StoreMessage.Reason, bundleId: String, customer: String) async throws -> StoreMessage {
        try await catchUp()
        var batch = WriteBatch()
        let message = queueMessage(reason, bundleId: bundleId, customer: customer, chain: nil, at: nowMs(), in: &batch)
        try await commit(batch)
        return message
    }
}
