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
        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
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
    public var url: String
    public var reason: String
    public var description: String {
        // The URL may carry a password: name its scheme only.
        let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return "bad database URL (\(scheme):…): \(reason)"
    }
}
