import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// The subscribe button's default label as "Meet StoreKit for SwiftUI" (WWDC23) shows it: an
/// action phrase in the button with the price as a caption above it; and the talk's next step,
/// "the subscriptionStoreButtonLabel is used to choose a multi-line layout for our subscribe
/// button. Notice how the subscribe button contains both the price and 'Try it Free.'" (the talk's
/// words as relayed by HuangRunHua/wwdc23-code-notes, meet-subscriptionstoreview-in-iOS17). Apple's
/// page: SubscriptionStoreButton is "a button for subscribing to an in-app subscription with a
/// localized label and optional caption" (https://developer.apple.com/documentation/storekit/subscriptionstorebutton).
@Suite struct SubscribeButtonCaptionTests {
    static var pass: SubscriptionStoreView<AutomaticSubscriptionStoreMarketingContent> { SubscriptionStoreView(groupID: Fixtures.passGroup) }

    @Test func byDefaultTheButtonSaysTheActionAndTheCaptionAboveItThePrice() throws {
        let output = html(Self.pass)
        #expect(SubscriptionOptionsTests.subscribeLabels(output) == [["Try It Free"]])
        #expect(SubscriptionOptionsTests.subscribeCaptions(output) == ["1 month free, then $11.99/mo"])
        let caption = try #require(output.offset(of: "sk-button-caption")), button = try #require(output.offset(of: "sk-button sk-subscribe"))
        #expect(caption < button, "the caption is above the button")
        #expect(output.contains(#"aria-label="Try It Free, 1 month free, then $11.99 per month""#),
                "the button's name still says the price, in words (the caption is hidden from assistive technology)")
    }

    @Test func multilineMovesThePriceIntoTheButton() {
        let output = html(Self.pass.backgroundStyle(.clear).subscriptionStoreButtonLabel(.multiline)
            .subscriptionStorePickerItemBackground(.thinMaterial))
        #expect(SubscriptionOptionsTests.subscribeLabels(output) == [["Try It Free", "1 month free, then $11.99/mo"]])
        #expect(!output.contains("sk-button-caption"), "no caption once the label holds the price")
    }

    /// Each plan carries its caption, so the page's script can follow the selection.
    @Test func eachPlanCarriesTheCaptionForTheScript() {
        let output = html(Self.pass)
        #expect(output.values(of: "data-button-caption") == ["1 month free, then $11.99/mo", "1 week free, then $7.99/mo",
                                                              "1 week free, then $4.99/mo"])
        #expect(PageScript.js.contains(#"querySelector(".sk-button-caption")"#))
        #expect(!html(Self.pass.subscriptionStoreButtonLabel(.multiline)).contains("data-button-caption"))
    }
}
