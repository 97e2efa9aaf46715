/// A value handed to another thread on purpose: StoreKit 1's objects are not Sendable, and the
/// layer hands them only to the main queue, where app code expects them.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
