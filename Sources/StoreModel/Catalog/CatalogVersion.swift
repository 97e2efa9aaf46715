/// The file's `version` (`{major, minor}`). Informational only: keys are never gated on it,
/// because Xcode writes new keys into files that keep an old version.
public struct CatalogVersion: Sendable, Equatable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(major).\(minor)" }
}
