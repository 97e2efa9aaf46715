import StoreKitTypes

extension Product {
    /// Where loading one product stands, as `storeProductTask(for:)` reports it.
    public enum TaskState: Sendable {
        case loading
        case success(Product)
        /// Not sold in the customer's storefront.
        case unavailable
        case failure(StoreViewError)

        /// The product once loaded, else nil.
        public var product: Product? {
            if case .success(let product) = self { return product }
            return nil
        }
    }

    /// Where loading several products stands, as `storeProductsTask(for:)` reports it.
    public enum CollectionTaskState: Sendable {
        case loading
        case success([Product], unavailable: [Product.ID])
        case failure(StoreViewError)

        /// The products found once loaded, else nil.
        public var products: [Product]? {
            if case .success(let products, _) = self { return products }
            return nil
        }
    }
}

/// Where an entitlement or status query stands (`currentEntitlementTask`, `subscriptionStatusTask`).
public enum EntitlementTaskState<Value: Sendable>: Sendable {
    case loading
    case success(Value)
    case failure(StoreViewError)

    /// The result once loaded, else nil.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The same state with a loaded value transformed; loading and failure pass through.
    public func map<T: Sendable>(_ transform: (Value) -> T) -> EntitlementTaskState<T> {
        switch self {
        case .loading: .loading
        case .success(let value): .success(transform(value))
        case .failure(let error): .failure(error)
        }
    }
}

extension EntitlementTaskState where Value == VerificationResult<Transaction>? {
    /// The entitlement's transaction; nil while loading, on failure, or when there is none.
    public var transaction: VerificationResult<Transaction>? { value ?? nil }
}

/// A store error as a page can show it (StoreKit's `StoreKitError` cases by name).
public struct StoreViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// StoreKit's error case by name, for code that tells errors apart.
    public let code: String
    /// The sentence a page shows for the error.
    public let message: String
    /// An error with its case name and its message.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
    /// The message, so the error prints as the page shows it.
    public var description: String { message }
}
