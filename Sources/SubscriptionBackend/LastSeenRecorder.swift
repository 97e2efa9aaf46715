import Synchronization

/// When the app last asked about each customer (`lastSeen`), saved in the background: a read of
/// customer info must not wait for a write, so sightings are kept in memory and saved together,
/// at most once a second, in one transaction. A crash loses at most the last second's sightings.
final class LastSeenRecorder: Sendable {
    private let pending = Mutex<(sightings: [String: Int64], scheduled: Bool)>(([:], false))
    private let database: BackendDatabase
    private let delay: Duration

    init(database: BackendDatabase, delay: Duration = .seconds(1)) {
        self.database = database
        self.delay = delay
    }

    /// Notes that the app asked about `appUserId` at `atMs`; saved within `delay`.
    func saw(_ appUserId: String, atMs: Int64) {
        let schedule = pending.withLock { state -> Bool in
            state.sightings[appUserId] = max(state.sightings[appUserId] ?? 0, atMs)
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        let delay = delay
        Task { [self] in
            try? await Task.sleep(for: delay)
            await flush()
        }
    }

    /// Saves what is pending now (also called at shutdown and by tests).
    func flush() async {
        let sightings = pending.withLock { state -> [String: Int64] in
            defer { state = ([:], false) }
            return state.sightings
        }
        guard !sightings.isEmpty else { return }
        _ = try? await database.write { store in try await store.saw(sightings) }
    }
}
