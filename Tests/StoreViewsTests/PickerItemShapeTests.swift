import Foundation
import Testing
@testable import StoreViews

/// `subscriptionStorePickerItemBackground(_:in:)` (iOS 18), checked against Apple's page
/// (https://developer.apple.com/documentation/swiftui/view/subscriptionstorepickeritembackground(_:in:)):
/// `nonisolated func subscriptionStorePickerItemBackground(_ backgroundStyle: some ShapeStyle, in shape: some Shape) -> some View`,
/// "Sets the background shape and style for subscription store view picker items within a view";
/// "Omit the shape parameter to use the default shape."
@Suite struct PickerItemShapeTests {
    static func firstPlan(_ view: some View) throws -> String {
        let output = html(view)
        let start = try #require(output.range(of: "<label class=\"sk-plan\""))
        return String(output[start.lowerBound...].prefix { $0 != ">" })
    }
    static var pass: SubscriptionStoreView<AutomaticSubscriptionStoreMarketingContent> { SubscriptionStoreView(groupID: Fixtures.passGroup) }

    @Test func theShapeRoundsEachPlan() throws {
        #expect(try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(.thinMaterial, in: .rect(cornerRadius: 12)))
            .contains("style=\"background:var(--sk-material-thin);border-radius:12px\""))
        #expect(try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(Color.blue, in: .capsule)).contains("border-radius:9999px"))
        #expect(try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(Color.blue, in: Rectangle())).contains("border-radius:0px"))
        #expect(try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(Color.blue, in: Circle())).contains("border-radius:50%"))
        #expect(try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(Color.blue, in: .rect(cornerRadius: -4))).contains("border-radius:0px"),
                "a negative radius is square")
    }

    @Test func omittingTheShapeKeepsTheDefault() throws {
        let inner = try Self.firstPlan(Self.pass.subscriptionStorePickerItemBackground(.thinMaterial)
            .subscriptionStorePickerItemBackground(Color.red, in: .capsule))
        #expect(inner == "<label class=\"sk-plan\" for=\"plan-2\" style=\"background:var(--sk-material-thin)\" data-product-id=\"com.example.backyardbirds.pass.premium\"",
                "the inner modifier without a shape restores the default shape: \(inner)")
        #expect(!(try Self.firstPlan(Self.pass)).contains("style="))
        #expect(html(Text("x").clipShape(.rect(cornerRadius: 8))).contains("8"), "clipShape still takes .rect(cornerRadius:)")
    }
}
