// TEST SCAFFOLDING, not a Combine implementation. Apple's Combine does not exist on Linux; the
// app-shaped StoreKit fixtures (Tests/StoreKitCompatFixtures) import it for `ObservableObject`
// and `@Published`, as apps' store classes do. This stand-in gives those two names just enough
// shape for such code to compile and keep its state, so the fixtures need no edit. Nothing
// publishes: there is no UI to tell.

/// Stand-in for Combine's `ObservableObject`: a class whose state a view would observe.
public protocol ObservableObject: AnyObject {}

/// Stand-in for Combine's `@Published`: stores the value; `$value` gives the wrapper back.
@propertyWrapper
public struct Published<Value> {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public var projectedValue: Published<Value> { self }
}

extension Published: Sendable where Value: Sendable {}
