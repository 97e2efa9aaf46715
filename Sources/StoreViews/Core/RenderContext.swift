/// What a view sees while it renders: the environment its ancestors set, and the render session
/// shared by the whole page (the store's data, the actions buttons register).
public struct RenderContext {
    /// The environment in effect here: what ancestors' modifiers set.
    public var environment: EnvironmentValues
    /// Shared by every view of the render: where buttons register actions and purchases are requested.
    public let session: RenderSession

    /// Starts a render at the top of a page; `PageRenderer` makes one per pass.
    public init(environment: EnvironmentValues = EnvironmentValues(), session: RenderSession) {
        self.environment = environment
        self.session = session
    }

    /// A copy with one change to the environment, for a modifier's content.
    public func with(_ change: (inout EnvironmentValues) -> Void) -> RenderContext {
        var copy = self
        change(&copy.environment)
        return copy
    }

    /// The store data the page draws from (the session's snapshot).
    public var store: StoreSnapshot { session.store }
}

/// Whether the page is drawn with the store's data, or as StoreKit shows it before data arrives.
public enum RenderPhase: String, Sendable, CaseIterable {
    /// Every task reports `.loading`; product views show their placeholders.
    case loading
    /// Tasks report what the store says: success, unavailable or failure.
    case loaded
}

/// One page render: the data it draws from and what its buttons do. A POST from the page renders
/// the page again with the same data, so the button that was pressed finds its action here, as a
/// SwiftUI button finds its closure. A session belongs to one render on one task at a time, which
/// is why it may be handed to the task-local that `@State` writes report to.
public final class RenderSession: @unchecked Sendable {
    /// The store data every view of this render draws from.
    public let store: StoreSnapshot
    /// Whether views draw the loaded data or StoreKit's loading placeholders.
    public let phase: RenderPhase
    /// Where forms post their actions.
    public let actionURL: String
    public internal(set) var actions = ActionTable()
    /// Purchases that button actions asked for (`configuration.purchase()` inside a custom style).
    public internal(set) var requestedPurchases: [PurchaseIntent] = []
    /// Dismissal asked for by a cancellation button or an action.
    public internal(set) var dismissRequested = false
    var nextID = 0
    var collectors: [ContainerBackgrounds] = []
    var stateChanged = false

    /// A session for one page render; actions post to `actionURL`.
    public init(store: StoreSnapshot, phase: RenderPhase = .loaded, actionURL: String = "actions") {
        self.store = store
        self.phase = phase
        self.actionURL = actionURL
    }

    /// A document-unique ID for `id`/`for`/`aria-*` attributes.
    public func uniqueID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)-\(nextID)"
    }

    /// Records a purchase requested by a button action; the server performs it after the action.
    public func requestPurchase(_ intent: PurchaseIntent) {
        requestedPurchases.append(intent)
    }

    /// Records that a cancellation button or an action asked to close the store.
    public func requestDismiss() {
        dismissRequested = true
    }

    func beginPass() {
        actions = ActionTable()
        nextID = 0
        stateChanged = false
    }
}
