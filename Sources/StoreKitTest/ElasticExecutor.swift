import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Swift's default executor has one thread per core (two on a small CI runner). Apple's
/// `SKTestSession` calls are synchronous, so a session blocks its caller's thread until the store
/// has applied an action. Two parallel tests doing so would hold every thread of the default
/// executor, and the store's own work (its group commit, its clock) would wait for a free thread
/// forever.
///
/// So StoreKitTest runs Swift's global jobs on threads that grow with demand: each job gets a
/// serial dispatch queue of its own, and those run on dispatch's overcommitting threads, which
/// are added when the busy ones block. It is installed once, in test processes only (the first
/// session does it), through the runtime's executor hook
/// `swift_task_enqueueGlobal_hook` (as SwiftNIO installs its event loops there).
final class ElasticExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ElasticExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue(label: "StoreKitTest.job").async { job.runSynchronously(on: ElasticExecutor.shared.asUnownedTaskExecutor()) }
    }

    /// Installs the global hook once; false when the runtime has none (or another is installed).
    static let installed: Bool = install()

    private typealias Original = @convention(thin) (UnownedJob) -> Void
    private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    private static func install() -> Bool {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        let slot = symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        guard slot.pointee == nil else { return false }
        let hook: Hook = { job, _ in
            DispatchQueue(label: "StoreKitTest.job").async { job.runSynchronously(on: ElasticExecutor.shared.asUnownedTaskExecutor()) }
        }
        slot.pointee = unsafeBitCast(hook, to: UnsafeRawPointer.self)
        return true
    }
}
