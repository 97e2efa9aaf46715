/// The rules of subscriber attributes: string values under short keys, the app's own or one of
/// the reserved `$` keys RevenueCat defines for a customer's contact details. Pure.
public enum SubscriberAttributes {
    /// Reserved keys: a key starting with `$` must be one of these.
    public static let reserved: Set<String> = ["$email", "$displayName", "$phoneNumber"]
    public static let maxKeyLength = 40
    public static let maxValueLength = 500
    public static let maxPerCustomer = 50

    /// Throws a `BackendRequestError` naming the first key or value that breaks a rule.
    static func validate(_ updates: [String: String?]) throws {
        guard !updates.isEmpty else { throw BackendRequestError("attributes is empty: name at least one key") }
        for (key, value) in updates.sorted(by: { $0.key < $1.key }) {
            guard (1...maxKeyLength).contains(key.count), !key.unicodeScalars.contains(where: isControl) else {
                throw BackendRequestError("attributes: key \(key.debugDescription) must be 1–\(maxKeyLength) characters without control characters")
            }
            if key.hasPrefix("$"), !reserved.contains(key) {
                throw BackendRequestError("attributes: \(key) is not a reserved key (\(reserved.sorted().joined(separator: ", "))); the app's own keys do not start with $")
            }
            if let value, value.count > maxValueLength || value.unicodeScalars.contains(where: isControl) {
                throw BackendRequestError("attributes.\(key).value must be at most \(maxValueLength) characters without control characters")
            }
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
}
