import Foundation
import StoreEngine

/// What a developer's server test needs to talk to the same store the session's app test buys in
/// (not in Apple's StoreKitTest, whose test environment has no App Store Server API).
extension SKTestSession {
    /// A Server API key of the session's app, as App Store Connect hands one out.
    public struct ServerAPIKey: Sendable {
        /// The private key, PKCS#8 PEM: the contents of the `.p8` file.
        public var privateKeyP8: String
        /// The key's ID, the `kid` of the JWTs signed with it.
        public var keyID: String
        /// The issuer ID, the `iss` of the JWTs signed with the key.
        public var issuerID: String
        /// The app the key may call the Server API for, the JWTs' `bid`.
        public var bundleID: String
    }

    /// The bundle ID the session's transactions carry (`Transaction.appBundleID`).
    public var bundleID: String { HostedStore.bundleID }

    /// Where the App Store Server API of the session's store answers (`/inApps/v1/…` below it):
    /// pass it to your App Store Server API client in place of Apple's sandbox URL. The session's
    /// transactions are in the Sandbox environment.
    public var serverAPIBaseURL: URL { host.url }

    /// The root certificate (DER) the store signs with: give it to `SignedDataVerifier` as its
    /// trusted root to verify the session's transactions, renewal info and notifications.
    public var rootCertificate: Data { host.rootCertificateDER }

    /// A new Server API key for the session's app, valid in this session only.
    public func makeServerAPIKey() async throws -> ServerAPIKey {
        let world = world
        let key = try await call { try await $0.world(world).createAPIKey(bundleId: HostedStore.bundleID) }
        return ServerAPIKey(privateKeyP8: key.privateKeyP8, keyID: key.key.keyId, issuerID: key.key.issuerId, bundleID: key.key.bundleId)
    }

    /// Where the session's App Store Server Notifications V2 go (Sandbox); nil stops them.
    /// Notifications are sent by the store in the test process as events happen, with Apple's
    /// retry schedule on the session's clock.
    public func setNotificationURL(_ url: URL?) async throws {
        let world = world
        _ = try await call { try await $0.world(world).setNotificationURL(url?.absoluteString, bundleId: HostedStore.bundleID, environment: "Sandbox") }
    }
}
