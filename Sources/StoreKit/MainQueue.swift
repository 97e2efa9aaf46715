import Dispatch

/// StoreKit 1 calls delegates and observers on the main thread, so app code that touches its UI
/// (or a `@MainActor` manager) from them stays correct. Here they run on the main dispatch queue,
/// in the order they were sent; a program must run that queue (an `async` main, `dispatchMain()`
/// or `RunLoop.main.run()`), as an app's run loop does.
enum MainQueue {
    static func async(_ body: @escaping () -> Void) {
        let box = Unchecked(body)
        DispatchQueue.main.async { box.value() }
    }
}

/// A value handed to another thread on purpose: StoreKit 1's objects are not Sendable, and the
/// layer hands them only to the main queue, where app code expects them.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
