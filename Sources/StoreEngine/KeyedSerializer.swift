/// Runs operations that share a key one after another, across suspension points. A world actor
/// alone cannot do this for a read–decide–write on the database: another request for the same
/// customer could read in between the first one's read and its commit.
actor KeyedSerializer {
    private var busy: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func acquire(_ key: String) async {
        guard busy.contains(key) else {
            busy.insert(key)
            return
        }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    /// Hands the key to the next waiter, in arrival order, or frees it.
    func release(_ key: String) {
        if var queue = waiters[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            busy.remove(key)
        }
    }

    /// Runs `body` holding `key`, releasing it however `body` ends.
    func serialized<T: Sendable>(
        _ key: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }
}
