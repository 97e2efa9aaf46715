import StoreShared
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import StoreEngine
import StoreModel
import StoreViews
import Synchronization

/// The store's event feed: the world's App Store events, newest first. With JavaScript the page
/// follows the store live (`EventStream`, Server-Sent Events); without it, a refresh link.
extension ManagePages {
    func events(_ query: ManageQuery) async throws -> Response {
        let events = try await store.world(query.world).recentEvents(limit: 200)
        let last = events.first?.seq ?? 0
        return ManageDocument.page("Events of \(query.world)", query, section: .events) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Events")
            html.element("p", [("class", "mg-muted")]) {
                html.element("span", [("id", "mg-live"), ("role", "status")], text: "The newest 200 events of the world.")
                html.text(" ")
                html.element("a", [("href", query.url("events"))], text: "Refresh")
            }
            html.element("div", [("class", "mg-scroll")]) {
                html.element("table", [("class", "mg-table"), ("id", "mg-events"), ("data-after", String(last)),
                                       ("data-stream", "/manage/events/stream?" + FormEncoding.query([("world", query.world)]))]) {
                    html.element("caption", [("class", "sk-visually-hidden")], text: "Events, newest first")
                    Self.head(html, ["#", "World time", "Event", "App", "Customer", "Transaction"])
                    html.element("tbody") {
                        for event in events {
                            html.element("tr") {
                                html.element("td", text: String(event.seq))
                                html.element("td", text: Self.date(event.atMs))
                                html.element("td", text: event.type + (event.subtype.map { " / \($0)" } ?? ""))
                                html.element("td", text: event.bundleId)
                                html.element("td", text: event.customer)
                                html.element("td", text: event.transactionId.map(String.init) ?? "")
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /manage/events/stream?world=&after=`: the world's events after `after` as Server-Sent
/// Events (`event: event`, JSON data, `id` = the event's number, so a reconnecting EventSource
/// resumes with `Last-Event-ID`). The events table is read once a second; a comment every 15
/// seconds keeps a quiet connection open.
struct EventStream {
    let store: AppStore

    func response(_ query: ManageQuery, lastEventId: String?) async throws -> Response {
        let world = query.world
        _ = try await store.worldInfo(world)
        let resume = (lastEventId?.isEmpty == false ? lastEventId : nil) ?? query["after"] ?? ""
        guard let start = resume.isEmpty ? 0 : Int64(resume), start >= 0 else {
            throw RequestError.malformed("after must be an event number (a whole number)")
        }
        let store = self.store
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            var head = start
            var quiet = 0
            let stopping = Atomic<Bool>(false)
            try await withGracefulShutdownHandler {
                while !Task.isCancelled, !stopping.load(ordering: .relaxed) {
                    let events = try await store.world(world).events(after: head, limit: 500)
                    for event in events {
                        head = event.seq
                        let data = Self.json(seq: event.seq, atMs: event.atMs, type: event.type, subtype: event.subtype, bundleId: event.bundleId,
                                             customer: event.customer, transactionId: event.transactionId)
                        try await writer.write(ByteBuffer(string: "id: \(event.seq)\nevent: event\ndata: \(data)\n\n"))
                    }
                    if events.count == 500 { continue }
                    quiet = events.isEmpty ? quiet + 1 : 0
                    if quiet >= 15 {
                        quiet = 0
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                    try await Task.sleep(for: .seconds(1))
                }
            } onGracefulShutdown: {
                stopping.store(true, ordering: .relaxed)
            }
            try await writer.finish(nil)
        })
    }

    static func json(seq: Int64, atMs: Int64, type: String, subtype: String?, bundleId: String, customer: String, transactionId: Int64?) -> String {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.field("seq", seq)
        json.field("at", ManagePages.date(atMs))
        json.field("type", type)
        json.field("subtype", subtype)
        json.field("bundleId", bundleId)
        json.field("customer", customer)
        json.field("transactionId", transactionId.map(String.init))
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
