import Foundation
import Hummingbird

/// The store pages' CSRF guard. A page's buttons purchase for whoever is named in the URL, so
/// another site must not be able to post them: browsers send `Origin` with every cross-site
/// POST, and a POST whose `Origin` names another host or port than `Host` is refused. Requests
/// without `Origin` (curl, tests, older same-origin form posts) pass.
enum SameOriginGuard {
    static func allows(_ request: Request) -> Bool {
        allows(origin: request.headers[.origin], host: request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!])
    }

    static func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let from = URLComponents(string: origin), let scheme = from.scheme?.lowercased(), let originHost = from.host,
              let host, let to = URLComponents(string: "\(scheme)://\(host)"), let hostHost = to.host
        else { return false }  // includes `Origin: null` (sandboxed frames, opaque origins)
        let defaultPort = scheme == "https" ? 443 : 80
        return originHost.lowercased() == hostHost.lowercased() && (from.port ?? defaultPort) == (to.port ?? defaultPort)
    }
}
