/// One problem in a `.storekit` file, located by its JSON path
/// (`subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod`; "" for the whole file).
public struct CatalogFault: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending value; "" when the fault is about the whole file.
    public var path: String
    /// What is wrong there, in words for the file's author.
    public var message: String

    /// A fault at `path`; the parser makes these while reading a file.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message when the path is empty.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
