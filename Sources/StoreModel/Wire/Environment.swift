/// Which App Store a payload claims to come from. Apple's verifiers compare it with their own setting,
/// so it goes into every signed payload.
public enum StoreEnvironment: String, Codable, Sendable, CaseIterable {
    case sandbox = "Sandbox"
    case production = "Production"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    /// Accepts Apple's spelling and any letter case, because people type it on command lines.
    public init?(lenient text: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else { return nil }
        self = match
    }
}
