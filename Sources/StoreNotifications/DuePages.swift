import StoreEngine

/// A world's due notifications for one pass, a page at a time, the next page read while the last
/// is being sent. Each page starts after the last one's position, so the notifications in flight,
/// whose outcomes are not written yet, are not handed out again; a failed attempt written back
/// with a later due time may come round again in the same pass once it is due, as a new attempt.
struct DuePages {
    let store: AppStore
    let world: String
    let pageSize: Int
    /// Most notifications the pass takes from this world.
    private var left: Int
    private var ahead: Task<[DueNotification], any Error>?
    private var done = false

    init(store: AppStore, world: String, pageSize: Int, cap: Int) {
        self.store = store
        self.world = world
        self.pageSize = max(1, pageSize)
        self.left = max(0, cap)
    }

    /// The next page, nil when the pass has taken everything due (or its cap) from the world.
    mutating func next() async throws -> [DueNotification]? {
        guard !done, left > 0 else { return nil }
        let asked = min(pageSize, left)
        let page: [DueNotification]
        if let ahead {
            self.ahead = nil
            page = try await ahead.value
        } else {
            page = try await store.world(world).dueNotifications(limit: asked)
        }
        left -= page.count
        if page.count < asked || left == 0 {
            done = true
        } else if let last = page.last {
            let (store, world, position, limit) = (store, world, last.position, min(pageSize, left))
            ahead = Task { try await store.world(world).dueNotifications(after: position, limit: limit) }
        }
        return page.isEmpty ? nil : page
    }
}
