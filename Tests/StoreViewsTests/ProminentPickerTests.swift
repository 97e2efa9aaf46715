import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// `.prominentPicker` "displays subscription plans as a prominent picker control, with a single
/// button to subscribe" (https://developer.apple.com/documentation/storekit/subscriptionstorecontrolstyle/prominentpicker),
/// and `.pagedProminentPicker` as "a prominent paged picker control". What makes it prominent in
/// the WWDC23 talk's store is what issue 35 found missing: each plan raised on a shadow, and a ring
/// around the selected one. The plain picker stays flat.
@Suite struct ProminentPickerTests {
    /// The declarations of the stylesheet rule whose selector list is exactly `selector`.
    static func rule(_ selector: String) -> String? {
        guard let start = Stylesheet.css.range(of: "\n\(selector){") else { return nil }
        return String(Stylesheet.css[start.upperBound...].prefix { $0 != "}" })
    }

    @Test(arguments: ["prominentPicker", "pagedProminentPicker"])
    func plansSitOnAShadowAndTheSelectedOneHasARing(_ kind: String) throws {
        let raised = try #require(Self.rule(".sk-controls-prominentPicker .sk-plan,.sk-controls-pagedProminentPicker .sk-plan"))
        #expect(raised.contains("box-shadow:0 2px 12px"), "every plan is raised")
        let ring = try #require(Self.rule(".sk-controls-prominentPicker .sk-plan:has(input:checked),.sk-controls-pagedProminentPicker .sk-plan:has(input:checked)"))
        #expect(ring.contains("0 0 0 2px var(--sk-bg),0 0 0 5px var(--sk-accent)"), "a ring in the accent color, set off by a gap")
        let room = try #require(Self.rule(".sk-controls-prominentPicker .sk-plans,.sk-controls-pagedProminentPicker .sk-plans"))
        #expect(room.contains("padding:6px"), "room for the ring inside a scrolling row")

        let style: StandardSubscriptionStoreControlStyle = kind == "prominentPicker" ? .prominentPicker : .pagedProminentPicker
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup).subscriptionStoreControlStyle(style))
        #expect(output.contains("class=\"sk-controls sk-controls-\(kind)\""), "the rules apply to the rendered controls")
        #expect(output.count(of: " checked") == 1, "the ring follows the checked radio, with or without the script")
    }

    @Test func thePlainPickerHasNeither() throws {
        let plan = try #require(Self.rule(".sk-plan"))
        #expect(!plan.contains("box-shadow"))
        #expect(!Stylesheet.css.contains(".sk-controls-picker .sk-plan"), "no rule raises the plain picker's plans")
    }
}
