import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// Plan controls show each plan's description (issue 35: "plan controls never show the plan's
/// description"). Apple's reference: `productDescription(_:)` "Configure[s] the visibility of labels
/// displaying an in-app purchase product description within the view"
/// (https://developer.apple.com/documentation/swiftui/view/productdescription(_:)); for standard
/// styles "which typically display the `description` property of the `Product`, this label is not
/// displayed when the visibility is `hidden`" (the `descriptionVisibility` doc comment); and "a
/// compact control style may never show product descriptions"
/// (https://developer.apple.com/documentation/storekit/productviewstyleconfiguration/descriptionvisibility).
@Suite struct PlanDescriptionTests {
    static let yearlyDescription = "All the Social Feed+ tools for a full year, at a better price."
    static let store = StoreSnapshot(products: Fixtures.foodTruck, introOfferEligibleGroups: [])

    static func store(_ style: StandardSubscriptionStoreControlStyle, _ visibility: Visibility? = nil) -> String {
        let view = SubscriptionStoreView(groupID: Fixtures.socialGroup).subscriptionStoreControlStyle(style)
        guard let visibility else { return html(view, store) }
        return html(view.productDescription(visibility), store)
    }

    @Test(arguments: [StandardSubscriptionStoreControlStyle.automatic, .picker, .prominentPicker, .pagedPicker, .pagedProminentPicker, .buttons])
    func everyStandardStyleShowsEachPlansDescription(_ style: StandardSubscriptionStoreControlStyle) {
        let output = Self.store(style)
        #expect(output.count(of: "sk-plan-description") == 2, "\(style.kind): one description per plan")
        #expect(output.contains(Self.yearlyDescription), "\(style.kind)")
    }

    @Test func hiddenHidesThemAndTheCompactPickerShowsThemOnlyWhenAskedTo() {
        #expect(!Self.store(.picker, .hidden).contains("sk-plan-description"))
        #expect(!Self.store(.buttons, .hidden).contains("sk-plan-description"))
        #expect(!Self.store(.compactPicker).contains("sk-plan-description"), "compact: never by default")
        #expect(Self.store(.compactPicker, .visible).contains(Self.yearlyDescription))
    }

    /// In a picker the description describes the radio: its name stays "plan, price" (what
    /// screen readers announce first), and the description is read after it.
    @Test func aPickerRowsDescriptionDescribesItsRadio() throws {
        let output = Self.store(.picker)
        let row = try #require(output.components(separatedBy: "<label ").first { $0.contains("value=\"\(Fixtures.yearly)\"") })
        let id = try #require(row.firstMatch(of: /aria-describedby="([^"]+)"/)?.1)
        #expect(row.contains("<span class=\"sk-plan-description\" id=\"\(id)\" dir=\"auto\" aria-hidden=\"true\">\(Self.yearlyDescription)</span>"))
        let name = try #require(row.offset(of: "sk-plan-name")), description = try #require(row.offset(of: "sk-plan-description"))
        let price = try #require(row.offset(of: "sk-plan-price"))
        #expect(name < description && description < price, "name, then what it is, then what it costs")
    }

    @Test func customStylesReadTheVisibilityAndTheStandardButtonAddsNoDescription() {
        struct Plain: SubscriptionStoreControlStyle {
            func makeBody(configuration: Configuration) -> some View {
                VStack {
                    Text(configuration.descriptionVisibility.rawValue)
                    ForEach(configuration.options, id: \.id) { SubscriptionStoreButton($0) }
                }
            }
        }
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup).subscriptionStoreControlStyle(Plain())
            .productDescription(.visible), Self.store)
        #expect(output.contains(">visible<"))
        #expect(!output.contains("sk-plan-description"), "SubscriptionStoreButton is a button with a label and caption only")
    }
}
