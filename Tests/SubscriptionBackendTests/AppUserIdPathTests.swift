import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// An app user ID in the JSON API's paths is percent-decoded, as an app's SDK encodes it: a
/// customer named by an email address posts and reads under the same ID, whichever characters it
/// holds; an ID that does not decode is a 400, not a customer of that literal name.
@Suite(.removesTemporaryFolders) struct AppUserIdPathTests {
    @Test func anEncodedAppUserIdNamesTheSameCustomerForEveryRoute() async throws {
        let kit = try SignedDataKit()
        try await withServedBackend(kit) { test, server, http in
            let base = server + "/v1/customers/"
            /// A GET, or a POST of `body`.
            func call(_ path: String, posting body: String? = nil) async throws -> (Int, [String: Any]) {
                var request = HTTPClientRequest(url: base + path)
                if let body {
                    request.method = .POST
                    request.body = .bytes(ByteBuffer(string: body))
                }
                let response = try await http.execute(request, timeout: .seconds(30))
                let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
            }

            let signed = try kit.sign(kit.transaction(id: "2000000000000001", original: "2000000000000001",
                                                      purchase: SignedDataKit.start, expires: SignedDataKit.start + 30 * SignedDataKit.day))
            let (posted, info) = try await call("ann%40example.com%20%C3%A9/transactions", posting: "{\"signedTransaction\": \"\(signed)\"}")
            #expect(posted == 200 && info["appUserId"] as? String == "ann@example.com é")
            let (read, again) = try await call("ann%40example.com%20%C3%A9")
            #expect(read == 200 && again["appUserId"] as? String == "ann@example.com é")
            let (listed, events) = try await call("ann%40example.com%20%C3%A9/events")
            #expect(listed == 200 && !((events["events"] as? [Any]) ?? []).isEmpty)
            #expect(try await test.backend.customerInfo(appUserId: "ann%40example.com%20%C3%A9") == nil, "no customer of the literal name")

            // (Foundation's URL, under the HTTP client, cannot carry an escape of bytes that are not
            // UTF-8; FormEncoding.pathDecoded refuses those, as the dashboard's tests show.)
            for bad in ["a%00b", "a%1Fb", String(repeating: "x", count: 257)] {
                let (status, body) = try await call(bad)
                #expect(status == 400 && body["error"] as? String == "invalidAppUserId", "\(bad.prefix(20)): \(status)")
            }
        }
    }
}
