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
            let path = "/storekit/v1/apps/\(ClientTestStore.bundle)/customers/zed/updates?heartbeat=0.05"

            // A first connection: the unfinished transaction (a change number, no resume position
            // yet), then `caughtUp` with the position to resume from, then heartbeats.
            let first = try await events(store, path, until: { $0.contains("event: caughtUp") && $0.contains(": keep-alive") })
            #expect(first.text.hasPrefix("retry: 1000\n\n"))
            let unfinished = try #require(first.events.first { $0.type == "transaction" })
            #expect(unfinished.id == nil && unfinished.json["position"] == nil)
            #expect(try payload(of: unfinished)["transactionId"] as? String == id)
            let caughtUp = try #require(first.events.first { $0.type == "caughtUp" })
            let position = try #require(caughtUp.id.flatMap { Int64($0) })
            #expect((caughtUp.json["position"] as? NSNumber)?.int64Value == position)
            #expect(try #require((unfinished.json["change"] as? NSNumber)?.int64Value) <= position)

            // Resumed from that position: only what changed after it, each event's id its position.
            let later = try await store.purchaseElsewhere("k.guide", customer: "zed")
            let laterID = try #require((later["transaction"] as? [String: Any])?["transactionId"] as? String)
            let resumed = try await events(store, path, lastEventID: String(position), until: { $0.contains("event: caughtUp") })
            let changes = resumed.events.filter { $0.type == "transaction" }
            #expect(try changes.map { try payload(of: $0)["transactionId"] as? String } == [laterID])
            let change = try #require(changes.first)
            #expect(change.id != nil && change.id == (change.json["position"] as? NSNumber)?.stringValue)
            #expect(change.id == (change.json["change"] as? NSNumber)?.stringValue)
            #expect(try #require(change.id.flatMap { Int64($0) }) > position)
        }
    }

    struct Event {
        var id: String?
        var type: String
        var json: [String: Any]
    }

    /// Reads the feed at `path` until `done` holds for the text so far, and parses its events.
    func events(_ store: ClientTestStore, _ path: String, lastEventID: String? = nil, until done: (String) -> Bool) async throws -> (text: String, events: [Event]) {
        var request = HTTPClientRequest(url: store.url.absoluteString + path)
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await store.http.execute(request, timeout: .seconds(30))
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "text/event-stream")
        var text = ""
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if done(text) { break }
        }
        let events = text.components(separatedBy: "\n\n").compactMap { block -> Event? in
            let lines = block.split(separator: "\n")
            guard let type = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7) else { return nil }
            let data = lines.first { $0.hasPrefix("data: ") }?.dropFirst(6) ?? "{}"
            return Event(id: lines.first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }, type: String(type),
                         json: (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:])
        }
        return (text, events)
    }

    /// The payload of an event's signed transaction, decoded as any client would.
    func payload(of event: Event) throws -> [String: Any] {
        let jws = try #require(event.json["signedTransaction"] as? String)
        let segments = jws.split(separator: ".")
        #expect(segments.count == 3)
        var base64 = String(segments[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let payload = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
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
