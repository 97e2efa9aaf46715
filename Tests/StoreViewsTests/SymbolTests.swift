import Foundation
import StoreKitTypes
import Testing
@testable import StoreViews

/// Issue 13 §10: symbols render everywhere. `Image(systemName:)` draws the built-in set as inline
/// SVG (no emoji font needed, nothing fetched); an emoji appears only where a page asks for a
/// character with `Image(glyph:)`.
@Suite struct SymbolTests {
    func render(_ image: Image) -> String {
        PageRenderer.fragment(image, store: StoreSnapshot(products: []))
    }

    @Test func everyBuiltInSymbolIsInlineSVGWithoutCharacters() throws {
        #expect(Image.systemNames.count >= 30)
        for name in Image.systemNames {
            let html = render(Image(systemName: name))
            #expect(html.hasPrefix("<svg class=\"sk-symbol\" aria-hidden=\"true\" focusable=\"false\" data-symbol=\"\(name)\""), "\(name): \(html.prefix(120))")
            #expect(html.hasSuffix("</svg>"), "\(name)")
            #expect(html.contains("<path") || html.contains("<circle") || html.contains("<rect"), "\(name) draws a shape")
            #expect(html.unicodeScalars.allSatisfy { $0.isASCII }, "\(name) contains no glyph that needs a font")
            #expect(!html.contains("href") && !html.contains("url("), "\(name) fetches nothing")
            #expect(html != render(Image(systemName: "no.such.symbol")), "\(name) is not the fallback dot")
        }
    }

    @Test func theDemoSymbolsAreInTheSet() {
        for name in ["crown.fill", "person.2.fill", "bird.fill", "chart.bar.fill", "bubble.left.and.bubble.right.fill",
                     "circle.grid.2x2.fill", "sun.max.fill", "drop.fill", "square.stack.fill", "scribble", "basket.fill"] {
            #expect(Symbols.markup[name] != nil, "\(name)")
        }
    }

    @Test func unknownNamesFallBackToADotAndGlyphsStayCharacters() {
        let unknown = render(Image(systemName: "teleporter.fill"))
        #expect(unknown.contains("data-symbol=\"teleporter.fill\"") && unknown.contains("<circle cx=\"12\" cy=\"12\" r=\"4\"/>"))
        #expect(render(Image(glyph: "🐦")) == "<span class=\"sk-symbol\" aria-hidden=\"true\">🐦</span>")
        // A hostile name is escaped in its attribute, never written as markup.
        let hostile = render(Image(systemName: "\"><script>alert(1)</script>"))
        #expect(!hostile.contains("<script>") && hostile.contains("&quot;&gt;&lt;script&gt;"))
    }

    @Test func theDemoStoresDrawNoEmoji() throws {
        let stores = [StoreSnapshot(products: Fixtures.birds), Fixtures.birdsSubscriber(Fixtures.family), StoreSnapshot(products: Fixtures.foodTruck)]
        for page in DemoStorePages.all {
            for store in stores {
                let html = PageRenderer.render(page.make(), store: store).html
                let emoji = html.unicodeScalars.filter { $0.properties.isEmojiPresentation }
                #expect(emoji.isEmpty, "\(page.id) draws \(String(String.UnicodeScalarView(emoji)))")
                #expect(!html.contains("<span class=\"sk-symbol\""), "\(page.id) draws no character as a symbol")
            }
        }
        let birds = try #require(DemoStorePages.page("backyard-birds"))
        let shop = PageRenderer.render(birds.make(), store: StoreSnapshot(products: Fixtures.birds)).html
        #expect(shop.contains("<svg class=\"sk-symbol\" aria-hidden=\"true\" focusable=\"false\" data-symbol=\"sun.max.fill\""),
                "the bird food shows its symbols as inline SVG")
    }
}
