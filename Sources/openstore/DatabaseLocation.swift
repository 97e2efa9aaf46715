import StoreStorage

/// Where the store's database is: `--database URL` / `OPENSTORE_DATABASE_URL`, or store.sqlite
/// in the data folder. The one place a command turns that into an open database.
enum DatabaseLocation {
    /// The SQLite file for `url` (`sqlite:PATH`), or the data folder's store.sqlite without one.
    static func sqlitePath(url: String?, data: String) throws -> String {
        guard let url else { return data + "/store.sqlite" }
        guard url.hasPrefix("sqlite:") else {
            throw ConfigError("unsupported database URL \(redacted(url)): use sqlite:PATH or postgres://user:password@host:port/database")
        }
        let path = String(url.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
        guard !path.isEmpty else { throw ConfigError("the database URL sqlite: names no file") }
        return path
    }

    /// `postgres://…` opens the store on a PostgreSQL server (StoreStorage parses and reports it);
    /// anything else is a SQLite file.
    static func open(url: String?, data: String) async throws -> StoreDatabase {
        if let url, url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try await StoreDatabase.open(url: url)
        }
        return try await StoreDatabase.open(path: sqlitePath(url: url, data: data))
    }

    /// The URL with any password replaced, fit for messages and logs.
    static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}
