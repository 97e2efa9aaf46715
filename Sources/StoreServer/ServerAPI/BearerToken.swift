import Hummingbird
import StoreEngine

/// The token of an `Authorization: Bearer …` header. Header parsing is HTTP, so it lives here;
/// the engine's gateway sees only the token.
enum BearerToken {
    /// The header's token, with or without the `Bearer ` scheme (any case), leading spaces dropped;
    /// nil when there is no header.
    static func parse(_ header: String?) -> String? {
        guard let header else { return nil }
        var token = Substring(header)
        if token.count > 7, token.prefix(7).lowercased() == "bearer " { token = token.dropFirst(7) }
        return String(token.drop(while: { $0 == " " }))
    }
}

extension ServerAPIGateway {
    /// Authenticates the request's bearer token (see `authenticate(token:now:)`).
    func authenticate(_ request: Request) async throws -> ServerAPICaller {
        try await authenticate(token: BearerToken.parse(request.headers[.authorization]))
    }
}
