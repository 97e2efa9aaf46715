import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The updates endpoint as any SSE client sees it (curl, EventSource): its format and its refusals.
@Suite struct UpdatesEndpointTests {
    @Test(.timeLimit(.minutes(1))) func eventsHeartbeatsAndResumePositions() async throws {
        try await ClientTestStore.with { store in
            let bought = try await store.purchaseElsewhere("k.seeds", customer: "zed")
            let id = try #require((bought["transaction"] as? [String: Any])?["transactionId"] as? String)
            var request = HTTPClientRequest(url: store.url.absoluteString + "/storekit/v1/apps/\(ClientTestStore.bundle)/customers/zed/updates?heartbeat=0.05")
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await store.http.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "Content-Type") == "text/event-stream")
            var text = ""
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if text.contains("event: caughtUp"), text.contains(": keep-alive") { break }
            }
            #expect(text.hasPrefix("retry: 1000\n\n"))
            let first = try #require(text.components(separatedBy: "\n\n").first { $0.contains("event: transaction") })
            let lines = first.split(separator: "\n")
            let position = try #require(lines.first { $0.hasPrefix("id: ") }).dropFirst(4)
            let data = try #require(lines.first { $0.hasPrefix("data: ") }).dropFirst(6)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
            #expect((json["position"] as? NSNumber)?.stringValue == String(position))
            let jws = try #require(json["signedTransaction"] as? String)
            let segments = jws.split(separator: ".")
            #expect(segments.count == 3)
            var base64 = String(segments[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let payload = try #require(Data(base64Encoded: base64))
            #expect((try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["transactionId"] as? String == id)
        }
    }

    @Test func refusalsAreJSONErrors() async throws {
        try await ClientTestStore.with { store in
            try await store.admin(.PUT, "/storekit/v1/customers/amy", [:])
            let path = "/storekit/v1/apps/\(ClientTestStore.bundle)/customers/amy/updates"
            let badResume = try await store.request(.GET, path, headers: [("Last-Event-ID", "yesterday")])
            #expect(badResume.status == 400 && badResume.json["error"] as? String == "malformedRequest")
            let badBeat = try await store.request(.GET, path + "?heartbeat=0")
            #expect(badBeat.status == 400 && badBeat.json["error"] as? String == "malformedRequest")
            let nobody = try await store.request(.GET, "/storekit/v1/apps/\(ClientTestStore.bundle)/customers/nobody/updates")
            #expect(nobody.status == 404 && nobody.json["error"] as? String == "customerNotFound")
            let noApp = try await store.request(.GET, "/storekit/v1/apps/com.example.nope/customers/amy/updates")
            #expect(noApp.status == 404 && noApp.json["error"] as? String == "appNotFound")
            let noWorld = try await store.request(.GET, "/storekit/v1/worlds/nowhere/apps/\(ClientTestStore.bundle)/customers/amy/updates")
            #expect(noWorld.status == 404 && noWorld.json["error"] as? String == "worldNotFound")
        }
    }
}
