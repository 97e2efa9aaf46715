import Dispatch

/// StoreKit 1 calls delegates and observers on the main thread. Requests and the payment queue do
/// so on the main actor from their own tasks (so the connection in effect is the one they use);
/// this is the path for a request that could not even start (no store configured), which has no
/// task: the main dispatch queue. Either way a program must run the main queue (an `async` main,
/// `dispatchMain()` or `RunLoop.main.run()`), as an app's run loop does.
enum MainQueue {
    static func async(_ body: @escaping () -> Void) {
        let box = Unchecked(body)
        DispatchQueue.main.async { box.value() }
    }
}
