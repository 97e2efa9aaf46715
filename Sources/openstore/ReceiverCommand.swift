import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreEngine
import StoreSigning
import StoreStorage

/// `openstore receiver`: a notification endpoint for humans. Point an app's notification URL at
/// it; it verifies each notification (and its nested transaction and renewal info) against the
/// store's root certificate, the way Apple's SignedDataVerifier would, and prints it decoded.
struct ReceiverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receiver",
        abstract: "Receive App Store Server Notifications, verify them and print them decoded.",
        discussion: """
        The root certificate comes from --root FILE.der, else from the store's data folder (--data), \
        else from the running store (--server). Then: openstore app set-notification-url --bundle-id B \
        --url http://127.0.0.1:PORT/
        """)

    @Option(help: "Port to listen on.") var port = 8090
    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "The store's root certificate (DER), as written by 'openstore keys root --der'.") var root: String?
    @Option(help: "The store's data folder, to read the root certificate from.") var data: String?
    @Option(help: "The running store, to fetch the root certificate from.") var server = "http://127.0.0.1:8080"
    @Option(help: "HTTP status to answer with (200–206 is success; anything else makes the store retry).") var status = 200
    @Flag(help: "Print each notification as one JSON line instead of a readable block.") var json = false

    func run() async throws {
        let verifier = try JWSVerifier(rootCertificateDER: try await rootDER())
        let answer = HTTPResponse.Status(code: status)
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 4 << 20)
            FileHandle.standardOutput.write(Data((NotificationPrinter.render(Data(buffer: body), verifier: verifier, json: json) + "\n").utf8))
            return Response(status: answer)
        }
        router.post("/", use: handler)
        router.post("**", use: handler)
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "openstore-receiver"),
            onServerRunning: { channel in
                FileHandle.standardOutput.write(Data("receiving notifications on http://\(host):\(channel.localAddress?.port ?? port)/\n".utf8))
            })
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    func rootDER() async throws -> [UInt8] {
        if let root { return Array(try Data(contentsOf: URL(fileURLWithPath: root))) }
        if let data {
            let database = try await StoreDatabase.open(path: data + "/store.sqlite")
            let store = try await AppStore.open(database: database, apps: [], runScheduler: false)
            defer { Task { await database.close() } }
            return store.authority.rootDER
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await client.execute(HTTPClientRequest(url: server + "/storekit/v1/root-certificate"), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            guard response.status == .ok else { throw ValidationError("\(server) answered \(response.status.code) for its root certificate") }
            return Array(buffer: body)
        } catch {
            try? await client.shutdown()
            throw ValidationError("cannot get the root certificate from \(server) (\(error)); give --root FILE.der or --data DIR")
        }
    }
}

/// One readable block per notification: what it is, its verification, and its decoded parts.
enum NotificationPrinter {
    static func render(_ body: Data, verifier: JWSVerifier, json: Bool) -> String {
        guard let outer = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let signed = outer["signedPayload"] as? String else {
            return "✗ not a notification (expected {\"signedPayload\": …}): \(String(decoding: body.prefix(200), as: UTF8.self))"
        }
        var payload: [String: Any]
        do {
            payload = try JSONSerialization.jsonObject(with: Data(try verifier.verify(signed))) as? [String: Any] ?? [:]
        } catch {
            return "✗ signedPayload does NOT verify: \(error)"
        }
        var problems: [String] = []
        for key in ["data", "summary"] {
            guard var part = payload[key] as? [String: Any] else { continue }
            for (field, decoded) in [("signedTransactionInfo", "transactionInfo"), ("signedRenewalInfo", "renewalInfo")] {
                guard let nested = part[field] as? String else { continue }
                do {
                    part[decoded] = try JSONSerialization.jsonObject(with: Data(try verifier.verify(nested)))
                    part[field] = nil
                } catch {
                    problems.append("\(field) does NOT verify: \(error)")
                }
            }
            payload[key] = part
        }
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        let type = [payload["notificationType"] as? String, payload["subtype"] as? String].compactMap { $0 }.joined(separator: " / ")
        var lines = ["━━ \(type)  \(payload["notificationUUID"] ?? "")"]
        lines.append("   signed \(date(payload["signedDate"]))  version \(payload["version"] ?? "?")  "
                     + (problems.isEmpty ? "✓ verified (payload and nested JWS) with the store's root" : "✗ " + problems.joined(separator: "; ")))
        if let data = payload["data"] as? [String: Any] {
            lines.append("   app \(data["bundleId"] ?? "?") (\(data["appAppleId"] ?? "?")) \(data["environment"] ?? "?")  bundleVersion \(data["bundleVersion"] ?? "-")"
                         + (data["status"].map { "  status \($0)" } ?? "") + (data["consumptionRequestReason"].map { "  reason \($0)" } ?? ""))
            if let t = data["transactionInfo"] as? [String: Any] {
                lines.append("   transaction \(t["transactionId"] ?? "?") (original \(t["originalTransactionId"] ?? "?"))  \(t["productId"] ?? "?")  \(t["type"] ?? "")")
                lines.append("     purchased \(date(t["purchaseDate"]))" + (t["expiresDate"].map { "  expires \(date($0))" } ?? "")
                             + (t["revocationDate"].map { "  revoked \(date($0))" } ?? ""))
            }
            if let r = data["renewalInfo"] as? [String: Any] {
                lines.append("   renewal: autoRenewStatus \(r["autoRenewStatus"] ?? "?")  autoRenewProductId \(r["autoRenewProductId"] ?? "?")"
                             + (r["renewalDate"].map { "  renews \(date($0))" } ?? "") + (r["expirationIntent"].map { "  expirationIntent \($0)" } ?? ""))
            }
        }
        if let summary = payload["summary"] as? [String: Any] {
            lines.append("   summary: \(summary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        }
        return lines.joined(separator: "\n")
    }

    static func date(_ ms: Any?) -> String {
        guard let ms = (ms as? NSNumber)?.int64Value else { return "-" }
        return Date(timeIntervalSince1970: Double(ms) / 1000).formatted(.iso8601)
    }
}
