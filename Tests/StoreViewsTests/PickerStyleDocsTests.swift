import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// iOS 18's picker control styles (issue 16 item 11). Apple: `.pagedProminentPicker` "displays
/// subscription plans as a paged prominent picker control, with a single button to subscribe"
/// (https://developer.apple.com/documentation/storekit/pagedprominentpickersubscriptionstorecontrolstyle);
/// `.compactPicker` and `.pagedPicker` likewise (https://developer.apple.com/documentation/storekit/subscriptionstorecontrolstyle).
@Suite struct PickerStyleDocsTests {
    @Test(arguments: [("compactPicker", StandardSubscriptionStoreControlStyle.compactPicker),
                      ("pagedPicker", .pagedPicker), ("pagedProminentPicker", .pagedProminentPicker)])
    func eachStyleIsAPickerWithOneSubscribeButton(_ name: String, _ style: StandardSubscriptionStoreControlStyle) {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup).subscriptionStoreControlStyle(style))
        #expect(output.contains("data-control-style=\"\(name)\""))
        #expect(output.count(of: "type=\"radio\"") == 3, "one choice per plan")
        #expect(output.count(of: "sk-subscribe") == 1, "a single button to subscribe")
    }
}
