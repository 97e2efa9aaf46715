import Foundation

/// Where the store keeps its state: `sqlite:PATH` (a file, the default) or
/// `postgres://user:pass@host:port/db` (a PostgreSQL server, so several instances can share it).
/// Parsed before anything opens, so a typo is reported as such and not as a connection failure.
public enum DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// A PostgreSQL server and database. `tls` follows libpq's `sslmode`: `disable` (the default
    /// here, for loopback and private networks), `prefer` or `require`.
    public struct PostgresLocation: Sendable, Equatable {
        /// Host name or address exactly as the URL gives it.
        public var host: String
        /// The URL's port, or PostgreSQL's usual 5432 when it names none.
        public var port: Int
        /// Role to log in as, percent-decoded, so a `%40` in the URL logs in as `@`.
        public var user: String
        /// Percent-decoded; `nil` when the URL has none. Never printed: `description` shows `***`.
        public var password: String?
        /// The URL's path without its leading `/`, percent-decoded.
        public var database: String
        /// From `?sslmode=`; `.disable` when the URL leaves it out.
        public var tls: TLSMode
        /// The subset of libpq's `sslmode` values understood here; any other value fails parsing
        /// rather than silently connecting without TLS.
        public enum TLSMode: String, Sendable { case disable, prefer, require }
    }

    /// Parses `sqlite:PATH`, `sqlite://PATH`, `postgres://…` or `postgresql://…`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("sqlite:") {
            var path = String(trimmed.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw DatabaseURLError(url: text, reason: "sqlite: needs a file path, as in sqlite:./.openstore/store.sqlite") }
            self = .sqlite(path: path)
            return
        }
        guard trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://"),
              let components = URLComponents(string: trimmed), let host = components.host, !host.isEmpty
        else {
            throw DatabaseURLError(url: text, reason: "use sqlite:PATH or postgres://user:password@host:port/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty else { throw DatabaseURLError(url: text, reason: "the URL names no database (…/DATABASE at its end)") }
        guard let user = components.user, !user.isEmpty else {
            throw DatabaseURLError(url: text, reason: "the URL names no user (postgres://USER@host/database)")
        }
        var tls = PostgresLocation.TLSMode.disable
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = PostgresLocation.TLSMode(rawValue: value) else {
                    throw DatabaseURLError(url: text, reason: "sslmode must be disable, prefer or require")
                }
                tls = mode
            default:
                throw DatabaseURLError(url: text, reason: "unknown parameter \(item.name) (only sslmode is read)")
            }
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw DatabaseURLError(url: text, reason: "port \(port) is out of range") }
        self = .postgres(PostgresLocation(
            host: host, port: port, user: user.removingPercentEncoding ?? user,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database, tls: tls))
    }

    /// The URL with its password hidden: safe for logs, error messages and the start-up line.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let location):
            let secret = location.password == nil ? "" : ":***"
            return "postgres://\(location.user)\(secret)@\(location.host):\(location.port)/\(location.database)"
        }
    }
}

/// A database URL that cannot be used, with what to write instead.
public struct DatabaseURLError: Error, CustomStringConvertible {
    /// The text as given. It may hold a password, so `description` shows only its scheme.
    public var url: String
    /// What is wrong and the form to use instead, written for the person who typed the URL.
    public var reason: String
    /// Scheme and reason only: the full URL is left out because it may carry a password.
    public var description: String {
        // The URL may carry a password: name its scheme only.
        let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return "bad database URL (\(scheme):…): \(reason)"
    }
}
