import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// `subscriptionStoreControlBackground(_:)`, one of the modifiers issue 35 found absent. Apple's
/// page (https://developer.apple.com/documentation/swiftui/view/subscriptionstorecontrolbackground(_:)-7ev89):
/// `nonisolated func subscriptionStoreControlBackground(_ backgroundStyle: SubscriptionStoreControlBackground) -> some View`,
/// "Set a standard effect to use for the background of subscription store view controls within the
/// view", with `automatic`, `gradientMaterial` and `gradientMaterialOnScroll`
/// (https://developer.apple.com/documentation/storekit/subscriptionstorecontrolbackground). The
/// type's doc comment adds "You can also use some `ShapeStyle` value instead of one of these styles".
@Suite struct ControlBackgroundTests {
    static func controls(_ view: some View) throws -> String {
        let output = html(view)
        let start = try #require(output.range(of: "<div class=\"sk-store-controls"))
        return String(output[start.lowerBound...].prefix { $0 != ">" })
    }
    static var pass: SubscriptionStoreView<AutomaticSubscriptionStoreMarketingContent> { SubscriptionStoreView(groupID: Fixtures.passGroup) }

    @Test func theStandardEffects() throws {
        #expect(try Self.controls(Self.pass) == "<div class=\"sk-store-controls\"", "automatic: the store's own material")
        #expect(try Self.controls(Self.pass.subscriptionStoreControlBackground(.automatic)) == "<div class=\"sk-store-controls\"")
        #expect(try Self.controls(Self.pass.subscriptionStoreControlBackground(.gradientMaterial))
                == "<div class=\"sk-store-controls sk-controls-background-gradientMaterial\"")
        #expect(try Self.controls(Self.pass.subscriptionStoreControlBackground(.gradientMaterialOnScroll))
                == "<div class=\"sk-store-controls sk-controls-background-gradientMaterialOnScroll\"")
        // "A material background, where the material effect fades into the background."
        #expect(Stylesheet.css.contains("mask-image:linear-gradient(to bottom,transparent,#000 3rem)"))
        // "…which only appears after someone scrolls": scroll-driven where the browser can, else shown.
        #expect(Stylesheet.css.contains("@supports (animation-timeline:scroll()){.sk-controls-background-gradientMaterialOnScroll::before{animation:sk-appear"))
    }

    @Test func aStyleFillsTheControlsAndWinsOverBackgroundStyle() throws {
        #expect(try Self.controls(Self.pass.subscriptionStoreControlBackground(Color.blue)).contains("style=\"background:var(--sk-blue)"))
        #expect(try Self.controls(Self.pass.subscriptionStoreControlBackground(.thinMaterial)).contains("var(--sk-material-thin)"))
        let both = try Self.controls(Self.pass.subscriptionStoreControlBackground(.gradientMaterial).backgroundStyle(Color.red))
        #expect(!both.contains("style="), "the control background wins over backgroundStyle: \(both)")
        let automatic = try Self.controls(Self.pass.subscriptionStoreControlBackground(.automatic).backgroundStyle(Color.red))
        #expect(automatic.contains("var(--sk-red)"), "automatic defers to backgroundStyle")
    }
}
