/// The rules of subscriber attributes: string values under short keys, the app's own or one of
/// the reserved `$` keys RevenueCat defines for a customer's contact details. Pure.
public enum SubscriberAttributes {
    /// Reserved keys: a key starting with `$` must be one of these.
    public static let reserved: Set<String> = ["$email", "$displayName", "$phoneNumber"]
    public static let maxKeyLength = 40
    public static let maxValueLength = 500
    public static let maxPerCustomer = 50

    /// Throws an `AttributeRefusal` naming the first key or value that breaks a rule.
    static func validate(_ updates: [String: String?]) throws {
        guard !updates.isEmpty else { throw AttributeRefusal("attributes is empty: name at least one key") }
        guard updates.count <= maxPerCustomer else { throw AttributeRefusal("attributes names \(updates.count) keys; at most \(maxPerCustomer)") }
        for (key, value) in updates.sorted(by: { $0.key < $1.key }) {
            guard (1...maxKeyLength).contains(key.unicodeScalars.count), !key.unicodeScalars.contains(where: isControl) else {
                throw AttributeRefusal("attributes: key \(key.debugDescription) must be 1–\(maxKeyLength) characters without control characters")
            }
            if key.hasPrefix("$"), !reserved.contains(key) {
                throw AttributeRefusal("attributes: \(key) is not a reserved key (\(reserved.sorted().joined(separator: ", "))); the app's own keys do not start with $")
            }
            if let value, value.unicodeScalars.count > maxValueLength || value.unicodeScalars.contains(where: isControl) {
                throw AttributeRefusal("attributes.\(key).value must be at most \(maxValueLength) characters without control characters")
            }
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
}

/// Attributes refused: a key or value against the rules (`breaksTheDocument`, a 400), or the
/// customer's state refusing them (too many in all, a deleted customer: 422).
public struct AttributeRefusal: Error, Sendable, CustomStringConvertible {
    public var description: String
    public var code: String
    public var breaksTheDocument: Bool

    init(_ description: String, code: String = "invalidAttributes", breaksTheDocument: Bool = true) {
        self.description = description
        self.code = code
        self.breaksTheDocument = breaksTheDocument
    }
}
