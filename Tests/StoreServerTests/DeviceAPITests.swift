import Foundation
import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

let catalogJSON = fixtureCatalog("device-api")

/// One server shared by the tests of this suite: starting one per test would only add time.
@Suite(.serialized, .removesTemporaryFolders) struct DeviceAPITests {
    static let bundle = "com.example.http"

    func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 42, environment: .sandbox, name: "HTTP", catalogJSON: catalogJSON),
        ], transport: .router, body)
    }

    @Test func purchaseOverHTTPReturnsAVerifiableTransaction() async throws {
        try await withServer { server in
            let answer = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/purchases",
                                               ["productId": "t.plus", "customer": "Jane Doe", "appAccountToken": "7E3FB20B-4CDB-47CC-936D-99D65F608138"])
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/json")
            let jws = try #require(answer.json["signedTransaction"] as? String)
            let root = try await server.request(.GET, "/storekit/v1/root-certificate")
            #expect(root.contentType == "application/pkix-cert")
            let verifier = try JWSVerifier(rootCertificateDER: Array(root.body))
            let payload = try verifier.verifyAndDecode(TransactionPayload.self, from: jws)
            #expect(payload.productId == "t.plus")
            #expect(payload.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            #expect(payload.offerDiscountType == .freeTrial)
            #expect(answer.json["signedRenewalInfo"] is String)

            let listed = try await server.request(.GET, "/storekit/v1/apps/\(Self.bundle)/customers/Jane%20Doe/entitlements")
            #expect((listed.json["signedTransactions"] as? [String])?.count == 1)
        }
    }

    @Test func badInputGetsAClear4xxNeverA5xx() async throws {
        try await withServer { server in
            let purchases = "/storekit/v1/apps/\(Self.bundle)/purchases"
            let cases: [(Data?, Int, String)] = [
                (Data("{not json".utf8), 400, "malformedRequest"),
                (Data("[]".utf8), 400, "malformedRequest"),
                (Data(#"{"customer":"a"}"#.utf8), 400, "malformedRequest"),
                (Data(#"{"productId":5,"customer":"a"}"#.utf8), 400, "malformedRequest"),
                (Data(#"{"productId":"t.seeds","customer":"a","quantity":"two"}"#.utf8), 400, "malformedRequest"),
                (Data(#"{"productId":"t.seeds","customer":"a","quantity":99}"#.utf8), 422, "invalidQuantity"),
                (Data(#"{"productId":"t.seeds","customer":"a","appAccountToken":"nope"}"#.utf8), 400, "invalidAppAccountToken"),
                (Data(#"{"productId":"t.unknown","customer":"a"}"#.utf8), 404, "productUnavailable"),
                (Data(repeating: 0x20, count: 70_000), 413, "payloadTooLarge"),
                (nil, 400, "malformedRequest"),
            ]
            for (body, status, code) in cases {
                let answer = try await server.request(.POST, purchases, body: body)
                #expect(answer.status == status, "body \(String(decoding: (body ?? Data()).prefix(40), as: UTF8.self))")
                #expect(answer.json["error"] as? String == code)
                #expect(answer.contentType == "application/json")
            }
            let unknownApp = try await server.json(.POST, "/storekit/v1/apps/com.nope/purchases", ["productId": "t.seeds", "customer": "a"])
            #expect(unknownApp.status == 404 && unknownApp.json["error"] as? String == "appNotFound")
            let unknownRoute = try await server.request(.GET, "/storekit/v1/nothing-here")
            #expect(unknownRoute.status == 404 && unknownRoute.contentType == "application/json")

            _ = try await server.json(.POST, purchases, ["productId": "t.history", "customer": "b"])
            let again = try await server.json(.POST, purchases, ["productId": "t.history", "customer": "b"])
            #expect(again.status == 409 && again.json["error"] as? String == "alreadyPurchased")
            let badFront = try await server.json(.PUT, "/storekit/v1/customers/c", ["storefront": "XXX"])
            #expect(badFront.status == 422 && badFront.json["error"] as? String == "invalidStorefront")
            let finishUnknown = try await server.request(.POST, "/storekit/v1/apps/\(Self.bundle)/customers/b/transactions/123/finish")
            #expect(finishUnknown.status == 404)
        }
    }

    @Test func productsAreListedForTheAsksedStorefront() async throws {
        try await withServer { server in
            let usa = try await server.request(.GET, "/storekit/v1/apps/\(Self.bundle)/products")
            let products = try #require(usa.json["products"] as? [[String: Any]])
            #expect(products.map { $0["id"] as? String } == ["t.seeds", "t.history", "t.plus"])
            #expect(products[0]["displayPrice"] as? String == "$0.99")
            #expect(products[2]["type"] as? String == "Auto-Renewable")
            let japan = try await server.request(.GET, "/storekit/v1/apps/\(Self.bundle)/products?storefront=JPN&id=t.history")
            #expect((japan.json["storefront"] as? [String: Any])?["currency"] as? String == "JPY")
            #expect((japan.json["products"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func openAPIDocumentIsServedAndCoversTheDeviceAPI() async throws {
        try await withServer { server in
            let answer = try await server.request(.GET, "/openapi.json")
            #expect(answer.status == 200)
            let paths = try #require(answer.json["paths"] as? [String: Any])
            for path in ["/storekit/v1/apps/{bundleId}/purchases", "/storekit/v1/apps/{bundleId}/products",
                         "/storekit/v1/apps/{bundleId}/customers/{customer}/app-transaction"] {
                #expect(paths[path] != nil, "missing \(path)")
            }
        }
    }
}
