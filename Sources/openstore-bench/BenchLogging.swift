import Logging
import StoreServer
import Synchronization

/// Log output of the servers under test: warnings and errors go to stderr while measuring, but
/// the complaints Hummingbird makes when its task is cancelled at the end are dropped (`mute()`),
/// so they don't read as failures.
enum BenchLogHandler {
    static let muted = Atomic<Bool>(false)
    static func mute() { muted.store(true, ordering: .relaxed) }

    static func make(label: String) -> any LogHandler {
        FilteredLogHandler(inner: StreamLogHandler.standardError(label: label)) { _, _ in
            muted.load(ordering: .relaxed)
        }
    }
}
