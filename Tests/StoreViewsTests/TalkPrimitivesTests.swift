import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// Issue 35: "the talk's samples use `ZStack`, `Circle`, … gradients …, which `StoreViews` lacks".
/// Apple's pages: `ZStack` is "a view that overlays its subviews, aligning them in both axes", with
/// `init(alignment: Alignment = .center, content:)` (https://developer.apple.com/documentation/swiftui/zstack/init(alignment:content:));
/// `Color.gradient` "returns the standard gradient for the color" as an `AnyGradient`, which "draws a
/// linear gradient with start-point [0.5, 0] and end-point [0.5, 1]"
/// (https://developer.apple.com/documentation/swiftui/color/gradient, …/anygradient).
@Suite struct TalkPrimitivesTests {
    @Test func zStackLayersItsChildrenInOneCell() {
        let output = html(ZStack {
            Circle().fill(Color.blue.gradient)
            Image(systemName: "bird.fill")
        })
        #expect(output.hasPrefix("<div class=\"sk-zstack\"><div class=\"sk-circle\" aria-hidden=\"true\" style=\"background:linear-gradient(180deg, color-mix(in srgb, var(--sk-blue) 75%, white), var(--sk-blue))\"></div>"))
        #expect(output.contains("<svg"), "the symbol is drawn in front")
        #expect(Stylesheet.css.contains(".sk-zstack{display:grid;place-items:center}.sk-zstack>*{grid-area:1/1}"), "every child in the same cell")
    }

    @Test(arguments: [(Alignment.topLeading, "start start"), (.bottomTrailing, "end end"), (.leading, "center start"), (.top, "start center")])
    func alignmentPlacesTheChildren(_ alignment: Alignment, _ css: String) {
        #expect(html(ZStack(alignment: alignment) { Text("a") }).contains("style=\"place-items:\(css)\""))
    }

    @Test func aCircleIsRoundAndDecorative() {
        #expect(html(Circle()) == "<div class=\"sk-circle\" aria-hidden=\"true\"></div>")
        #expect(Stylesheet.css.contains(".sk-circle{width:100%;aspect-ratio:1;border-radius:50%;background:currentColor}"))
        #expect(html(Circle().fill(Color.red)).contains("background:var(--sk-red)"))
    }

    /// The talk fills a subscription store's background with a color's gradient.
    @Test func aColorsGradientFillsAContainerBackground() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup) {
            Text("Pass").containerBackground(Color.accentColor.gradient, for: .subscriptionStore)
        })
        #expect(output.contains("style=\"background:linear-gradient(180deg, color-mix(in srgb, var(--sk-accent) 75%, white), var(--sk-accent))\""))
        #expect(AnyGradient(color: .green).cssColor == "var(--sk-green)", "text takes the color itself")
    }
}
