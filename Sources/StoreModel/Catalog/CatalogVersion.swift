/// The file's `version` (`{major, minor}`). Informational only: keys are never gated on it,
/// because Xcode writes new keys into files that keep an old version.
public struct CatalogVersion: Sendable, Equatable, CustomStringConvertible {
    /// The part before the dot.
    public var major: Int
    /// The part after the dot.
    public var minor: Int

    /// A version as the file's `version` object gives it.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// "major.minor", as tables and messages show it.
    public var description: String { "\(major).\(minor)" }
}
