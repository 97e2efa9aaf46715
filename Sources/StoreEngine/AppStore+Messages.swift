import Foundation
import StoreStorage

extension AppStore {
    /// `Message.messages`: the messages waiting for the customer in the app, oldest first. Handing
    /// them out does not mark them read; `displayMessage` does.
    public func messages(bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> [StoreMessage] {
        let app = try app(bundleId)
        return try await self.world(world).waitingMessages(bundleId: app.bundleId, customer: customer)
    }

    /// `Message.display(in:)`: the message is read and is never handed out again.
    public func displayMessage(_ id: String, bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> StoreMessage {
        let app = try app(bundleId)
        return try await self.world(world).displayMessage(id, bundleId: app.bundleId, customer: customer)
    }

    /// Queues a `.generic` message (or any reason) for a customer, as App Store Connect's
    /// messaging would; for tests of an app's message handling.
    public func queueMessage(_ reason: StoreMessage.Reason = .generic, bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> StoreMessage {
        let app = try app(bundleId)
        try Self.checkCustomerName(customer)
        let world = try await self.world(world)
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
