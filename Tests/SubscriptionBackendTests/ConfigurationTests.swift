import Foundation
import Testing
@testable import SubscriptionBackend

/// backend.json as people write it: defaults fill the gaps, mistakes name their JSON path, and
/// the shipped Apple root is only trusted when it is the certificate Apple publishes.
@Suite struct ConfigurationTests {
    func load(_ json: String) throws -> BackendConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(json.utf8).write(to: file)
        return try BackendConfiguration.load(path: file.path)
    }

    @Test func aMinimalFileTakesTheDefaults() throws {
        let config = try load(#"{"apps": [{"bundleId": "com.example.app", "appAppleId": 42}]}"#)
        try config.validate()
        #expect(config.host == "127.0.0.1" && config.port == 8081 && config.webhookMaxAttempts == 10 && config.webhookLeaseSeconds == 60)
        let app = try #require(config.apps.first)
        #expect(app.environments == ["Production", "Sandbox"] && app.trustAppleRoot && app.entitlements.isEmpty)
        #expect(app.baseURL(environment: "Production") == "https://api.storekit.apple.com")
        #expect(app.baseURL(environment: "Sandbox") == "https://api.storekit-sandbox.apple.com")
        var local = app
        local.apiBaseURL = "http://127.0.0.1:8080/"
        #expect(local.baseURL(environment: "Production") == "http://127.0.0.1:8080")
    }

    @Test func mistakesNameTheirJSONPath() throws {
        #expect(throws: BackendConfigurationError.self) { try load(#"{"apps": [{"appAppleId": 1}]}"#) }
        do {
            _ = try load(#"{"apps": [{"bundleId": "a", "environments": "Sandbox"}]}"#)
            Issue.record("a string where a list belongs was accepted")
        } catch let error as BackendConfigurationError {
            #expect(error.description.contains("$.apps[0].environments"))
        }
        do {
            try load(#"{"apps": [{"bundleId": "a", "environments": ["Production"]}]}"#).validate()
            Issue.record("Production without appAppleId was accepted")
        } catch let error as BackendConfigurationError {
            #expect(error.description.contains("$.apps[0].appAppleId"))
        }
        do {
            try load(#"{"apps": [{"bundleId": "a", "environments": ["Sandbx"]}]}"#).validate()
            Issue.record("an unknown environment was accepted")
        } catch let error as BackendConfigurationError {
            #expect(error.description.contains("Sandbx"))
        }
        #expect(throws: BackendConfigurationError.self) {
            try load(#"{"apps": [{"bundleId": "a", "environments": ["Sandbox"]}], "webhooks": [{"url": "ftp://x", "secret": "s"}]}"#).validate()
        }
        #expect(throws: BackendConfigurationError.self) { try BackendConfiguration().validate() }
        // Off loopback, the customer and admin API needs a token.
        let app = #"{"bundleId": "a", "environments": ["Sandbox"]}"#
        #expect(throws: BackendConfigurationError.self) { try load(#"{"host": "0.0.0.0", "apps": [\#(app)]}"#).validate() }
        try load(#"{"host": "0.0.0.0", "apiToken": "t", "apps": [\#(app)]}"#).validate()
        // A webhook lease must outlast a delivery's timeout and margin (16 s at least).
        do {
            try load(#"{"webhookLeaseSeconds": 12, "apps": [\#(app)]}"#).validate()
            Issue.record("a lease shorter than a delivery was accepted")
        } catch let error as BackendConfigurationError {
            #expect(error.description.contains("$.webhookLeaseSeconds"))
        }
        try load(#"{"webhookLeaseSeconds": 16, "apps": [\#(app)]}"#).validate()
    }

    @Test func theShippedAppleRootIsTheOneApplePublishes() throws {
        let der = try AppleRootCertificate.der()
        #expect(der.count > 500)
        #expect(AppleRootCertificate.publishedSHA256 == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
    }

    /// The documented recipe, computed independently (Python's hmac module) for these inputs.
    @Test func webhookSignatureFollowsTheDocumentedRecipe() {
        let signature = WebhookDispatcher.signature(body: #"{"id":"e1"}"#, secret: "whsec_test", timestamp: 1_700_000_000)
        #expect(signature == "t=1700000000,v1=6a85cb117c993612a34c72b4cfb5a16baed25a80d26e298ce0e6671320fd07c8")
    }

    @Test func slackGetsOneReadableLine() throws {
        let payload = WebhookPayload(
            id: "e", type: "RENEWAL", appUserId: "alice", bundleId: "b", environment: "Sandbox", entitlementIds: ["plus"],
            productId: "plus.monthly", transactionId: "2", originalTransactionId: "1", price: 4.99, priceMilliunits: 4990,
            currency: "USD", periodType: "normal", ownershipType: "PURCHASED", eventTimestampMs: 0)
        let body = WebhookDispatcher.wireBody(eventJSON: payload.json(), format: "slack")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
        #expect(object == ["text": "RENEWAL: alice · plus.monthly · 4.99 USD · Sandbox"])
        #expect(WebhookDispatcher.wireBody(eventJSON: payload.json(), format: "json") == payload.json())
    }
}
