import Foundation
import StoreEngine
import StoreModel
@testable import StoreServer
import StoreTestSupport
import Testing

/// `/manage` shows a family member the subscription shared with them, without actions of its own:
/// a member's copy follows the purchaser's subscription, so renewing or expiring it is done there.
@Suite(.removesTemporaryFolders) struct ManageFamilyTests {
    static let bundle = "com.example.offers"

    @Test func aMembersSharedSubscriptionShowsWithoutActions() async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: fixtureCatalog("offers")),
        ], transport: .router) { server in
            for person in ["parent", "kid"] { _ = try await server.store.world(AppStore.defaultWorld).joinFamily(customer: person, group: "smiths") }
            let bought = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/purchases", ["productId": "o.monthly", "customer": "parent"])
            #expect(bought.status == 200)

            let parent = try await server.request(.GET, "/manage/customer?id=parent&app=\(Self.bundle)")
            #expect(parent.status == 200 && parent.text.contains("Force renewal of"))
            let kid = try await server.request(.GET, "/manage/customer?id=kid&app=\(Self.bundle)")
            #expect(kid.status == 200)
            #expect(kid.text.contains("Shared through Family Sharing"))
            #expect(kid.text.contains("o.monthly") && !kid.text.contains("Force renewal of"))
        }
    }
}
