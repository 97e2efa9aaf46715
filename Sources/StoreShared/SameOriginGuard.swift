import Foundation
import Hummingbird

/// The CSRF guard of the store's pages and the backend's dashboard. A page's buttons act for
/// whoever is named in the URL, so another site must not be able to post them: browsers send
/// `Origin` with every cross-site POST, and a POST whose `Origin` names another host or port than
/// `Host` is refused. Requests without `Origin` (curl, tests, older same-origin form posts) pass.
public enum SameOriginGuard {
    /// Whether `request` may act: no `Origin`, or one naming this host and port.
    public static func allows(_ request: Request) -> Bool {
        allows(origin: request.headers[.origin], host: request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!])
    }

    /// The rule on the two header values.
    public static func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let from = URLComponents(string: origin), let scheme = from.scheme?.lowercased(), let originHost = from.host,
              let host, let to = URLComponents(string: "\(scheme)://\(host)"), let hostHost = to.host
        else { return false }  // includes `Origin: null` (sandboxed frames, opaque origins)
        let defaultPort = scheme == "https" ? 443 : 80
        return originHost.lowercased() == hostHost.lowercased() && (from.port ?? defaultPort) == (to.port ?? defaultPort)
    }
}
