import Foundation

/// A mutable value behind a lock, for the layer's objects that several threads touch. An NSLock,
/// not `Mutex`: it holds non-Sendable values (the app's `SKPaymentTransactionObserver`s, as
/// Apple's API types them), which `Mutex`'s `sending` rules would refuse.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ newValue: Value) { lock.lock(); value = newValue; lock.unlock() }

    @discardableResult
    func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
