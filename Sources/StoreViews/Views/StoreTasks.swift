import StoreKitTypes
import StoreShared

/// Runs a store query's action before its content renders, as SwiftUI's store tasks do when a view
/// appears. With `@State` the page then renders again with the lifted state.
public struct StoreTaskView<Content: View>: PrimitiveView {
    let content: Content
    let run: (RenderContext) -> Void
    /// Runs the task's action with this render's data, then renders the content; adds no markup.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        run(context)
        content._render(context, html)
    }
}

extension View {
    /// Mirrors `storeProductTask(for:action:)`: reports loading one product, to lift into `@State`.
    public func storeProductTask(for id: Product.ID, action: @escaping (Product.TaskState) -> Void) -> StoreTaskView<Self> {
        StoreTaskView(content: self) { context in
            action(context.session.phase == .loading ? .loading : context.store.taskState(for: id))
        }
    }

    /// Mirrors `storeProductsTask(for:action:)`: reports loading several products, unavailable IDs included.
    public func storeProductsTask(for ids: some Collection<String>, action: @escaping (Product.CollectionTaskState) -> Void) -> StoreTaskView<Self> {
        let ids = Array(ids)
        return StoreTaskView(content: self) { context in
            action(context.session.phase == .loading ? .loading : context.store.collectionState(for: ids))
        }
    }

    /// Mirrors `subscriptionStatusTask(for:action:)`: reports the customer's statuses in a group.
    public func subscriptionStatusTask(for groupID: String,
                                       action: @escaping (EntitlementTaskState<[Product.SubscriptionInfo.Status]>) -> Void) -> StoreTaskView<Self> {
        StoreTaskView(content: self) { context in
            if context.session.phase == .loading { return action(.loading) }
            if let failure = context.store.statusFailure { return action(.failure(failure)) }
            action(.success(context.store.subscriptionStatuses[groupID] ?? []))
        }
    }

    /// Mirrors `currentEntitlementTask(for:action:)`: reports the customer's entitlement to a product, nil if none.
    public func currentEntitlementTask(for productID: String,
                                       action: @escaping (EntitlementTaskState<VerificationResult<Transaction>?>) -> Void) -> StoreTaskView<Self> {
        StoreTaskView(content: self) { context in
            if context.session.phase == .loading { return action(.loading) }
            action(.success(context.store.currentEntitlements[productID]))
        }
    }

    /// Runs before each purchase any store inside this view starts. Every such action around a
    /// store runs, the innermost first and then outward: the talk says "if you add multiple of
    /// these modifiers, all of your actions will be applied to each event", and Apple's reference
    /// says nil removes "any actions ancestor views may have added" (so nil restores the default,
    /// none, for everything inside it).
    public func onInAppPurchaseStart(perform action: ((Product) async -> Void)?) -> EnvironmentWriter<Self> {
        transformEnvironment { environment in
            guard let action, let ancestors = environment.onInAppPurchaseStart else {
                environment.onInAppPurchaseStart = action
                return
            }
            environment.onInAppPurchaseStart = { product in
                await action(product)
                await ancestors(product)
            }
        }
    }

    /// Runs when a purchase from a store inside this view ends. By default a success is emitted on
    /// `Transaction.updates` and an error shows an alert; nil restores that default. Unlike the
    /// start action, one completion action runs per purchase, the innermost: Apple's reference says
    /// "Only one action will be performed for each purchase. Descendant views can override the
    /// action" (the completion decides the outcome's handling, which can't be done twice).
    public func onInAppPurchaseCompletion(
        perform action: ((Product, Result<Product.PurchaseResult, any Error>) async -> Void)?
    ) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.onInAppPurchaseCompletion = action }
    }
}
