import Foundation
import Testing
@testable import StoreViews

/// `symbolVariant(_:)`, which the WWDC23 talk's samples use (issue 35). Apple: it "makes symbols
/// within the view show a particular variant" (https://developer.apple.com/documentation/swiftui/view/symbolvariant(_:)),
/// `.fill` draws filled symbols "for those symbols that have a filled variant", variants chain
/// (`.circle.fill`), and `.none` through the modifier "doesn't have any effect", while setting
/// `\.symbolVariants` to `.none` shows "a symbol that ignores the current variant"
/// (https://developer.apple.com/documentation/swiftui/symbolvariants/none).
@Suite struct SymbolVariantTests {
    static func symbols(_ output: String) -> [String] {
        output.matches(of: /data-symbol="([^"]+)"/).map { String($0.1) }
    }

    @Test func fillDrawsTheFilledSymbolsThatHaveOne() {
        let output = html(HStack {
            Image(systemName: "bird")
            Image(systemName: "star")
            Image(systemName: "scribble")
        }.symbolVariant(.fill))
        #expect(Self.symbols(output) == ["bird.fill", "star.fill", "scribble"], "scribble has no filled variant")
    }

    @Test func variantsChainAndNest() {
        #expect(Self.symbols(html(Image(systemName: "checkmark").symbolVariant(.circle.fill))) == ["checkmark.circle.fill"])
        #expect(Self.symbols(html(Image(systemName: "checkmark").symbolVariant(.fill).symbolVariant(.circle))) == ["checkmark.circle.fill"],
                "an outer variant adds to an inner one")
        #expect(Self.symbols(html(Image(systemName: "leaf.fill").symbolVariant(.fill))) == ["leaf.fill"], "never doubled")
        #expect(SymbolVariants.circle.fill.contains(.fill) && !SymbolVariants.fill.contains(.circle))
    }

    @Test func noneThroughTheEnvironmentClearsTheVariant() {
        let output = html(HStack {
            Image(systemName: "heart")
            Image(systemName: "star").environment(\.symbolVariants, .none)
            Image(systemName: "leaf").symbolVariant(.none)
        }.symbolVariant(.fill))
        #expect(Self.symbols(output) == ["heart.fill", "star", "leaf.fill"])
    }
}
