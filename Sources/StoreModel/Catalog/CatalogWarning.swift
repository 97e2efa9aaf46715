/// Something odd in a `.storekit` file that Xcode tolerates, so the file still loads: an empty
/// price, the old number form of `_compatibilityTimeRate`, a repeated subscription group ID.
/// Located by its JSON path like a fault; `catalog validate --strict` turns warnings into faults.
/// The rules are in docs/catalog-format.md.
public struct CatalogWarning: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the odd value; "" when it is about the whole file.
    public var path: String
    /// What is odd there and how it was read, in words for the file's author.
    public var message: String

    /// A warning at `path`; the parser makes these while reading a file.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The same finding as a fault, for strict reading.
    public var fault: CatalogFault {
        CatalogFault(path: path, message: message)
    }

    /// `path: message`, or just the message when the path is empty.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
