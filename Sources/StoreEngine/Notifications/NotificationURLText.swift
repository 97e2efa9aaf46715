import Foundation

/// A notification URL fit to print or log: no user, password, query or fragment, which may hold a
/// receiver's secret (logs and `openstore doctor` both show URLs; neither may leak one).
public enum NotificationURLText {
    /// The URL without user, password, query or fragment; "(unparseable URL)" when it cannot be read.
    public static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(unparseable URL)" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? "(unparseable URL)"
    }
}
