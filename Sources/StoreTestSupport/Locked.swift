import Foundation

/// A value shared with `@Sendable` closures and tasks in a test, behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    /// Holds `value` from the start; read and write it through `value`.
    public init(_ value: Value) { stored = value }
    /// The current value; each read and each write takes the lock on its own.
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
