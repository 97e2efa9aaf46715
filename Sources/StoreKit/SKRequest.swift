import Foundation
import OpenStoreKit

/// The abstract request of StoreKit 1 (`SKProductsRequest`, `SKReceiptRefreshRequest`): start,
/// cancel, and a delegate told when it finishes or fails.
open class SKRequest: NSObject, @unchecked Sendable {
    /// Told on the main queue when the request finishes or fails. Weak, as StoreKit's. Typed
    /// `SKRequestDelegate` here also on `SKProductsRequest` (Swift cannot narrow an inherited
    /// property's type as Objective-C does); a products delegate assigned to it is still called.
    open weak var delegate: (any SKRequestDelegate)?

    /// The running request; the request keeps itself alive while it runs, as StoreKit's does.
    private let running = LockedBox<Task<Void, Never>?>(nil)
    private let cancelled = LockedBox(false)

    /// A request with no delegate; subclasses add what they ask for.
    public override init() { super.init() }

    /// Sends the request to the store. Calling it again while it runs does nothing.
    open func start() {
        let connection: StoreConnection
        do {
            connection = try OpenStoreKit.connection()
        } catch {
            let failure = SKError(storeKit: error)
            MainQueue.async { self.fail(failure) }
            return
        }
        cancelled.set(false)
        running.update { task in
            guard task == nil else { return }
            task = Task {
                await OpenStoreKit.withConnection(connection) { await self.perform(connection) }
                self.running.set(nil)
            }
        }
    }

    /// Stops the request: the delegate hears nothing more from it.
    open func cancel() {
        cancelled.set(true)
        running.update { task in
            task?.cancel()
            task = nil
        }
    }

    /// The work of a subclass, run with the connection bound; it reports through `finish` or `fail`.
    func perform(_ connection: StoreConnection) async {}

    /// Calls `body` on the main actor (the main queue) unless the request was cancelled, in the
    /// request's task, so StoreKit calls the delegate makes see the same connection.
    func deliver(_ body: @escaping () -> Void) async {
        let job = Unchecked(body)
        await MainActor.run {
            guard !self.cancelled.get() else { return }
            job.value()
        }
    }

    func fail(_ error: SKError) {
        delegate?.request(self, didFailWithError: error)
    }
}
