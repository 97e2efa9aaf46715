/// SwiftUI's `@State` for pages: storage that survives re-renders of the same page value. A store
/// task's action writes to it, the page renders again, and the new value shows, as in the talk's
/// "lift the loading state up" pattern.
@propertyWrapper
public struct State<Value> {
    final class Box {
        var value: Value
        var onChange: (() -> Void)?
        init(_ value: Value) { self.value = value }
    }
    let box: Box

    /// Starts the storage at `wrappedValue`, the value the first render sees.
    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    /// The stored value; setting it during a render makes the page render once more with it.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set {
            box.value = newValue
            RenderPass.current?.stateChanged = true
        }
    }
}

/// The render pass in progress on this thread, so `@State` writes can ask for another pass.
enum RenderPass {
    @TaskLocal static var current: RenderSession?
}
