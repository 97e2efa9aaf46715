import NIOSSL
import PostgresNIO

extension DatabaseURL.PostgresLocation {
    /// How to connect to this server: the URL's host, credentials, database and TLS mode, with a
    /// 5 s connect timeout so an unreachable server is named quickly. Shared by the store and the
    /// subscription backend, so both read the same URL the same way.
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        switch tls {
        case .disable: break
        case .prefer: configuration.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: configuration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
