/// One problem in a `.storekit` file, located by its JSON path
/// (`subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod`; "" for the whole file).
public struct CatalogFault: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message when the path is empty.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
