import Foundation
import Testing
@testable import StoreViews

/// `ContentUnavailableView` and `Label`, which the WWDC23 talk's samples use (issue 35). Apple: "An
/// interface, consisting of a label and additional content, that you display when the content of
/// your app is unavailable to users", created "by providing a label and some additional content such
/// as a description or a call to action"
/// (https://developer.apple.com/documentation/swiftui/contentunavailableview,
/// …/contentunavailableview/init(label:description:actions:)).
@Suite struct ContentUnavailableViewTests {
    @Test func labelDescriptionAndActions() {
        let output = html(ContentUnavailableView {
            Label("No Mail", systemImage: "xmark")
        } description: {
            Text("New mails you receive will appear here.")
        } actions: {
            Button("Refresh") {}
        })
        #expect(output.hasPrefix("<div class=\"sk-unavailable\"><p class=\"sk-unavailable-label\"><span class=\"sk-label\"><span class=\"sk-label-icon\" aria-hidden=\"true\"><svg"))
        #expect(output.contains("<span class=\"sk-label-title\" dir=\"auto\">No Mail</span>"))
        #expect(output.contains("<p class=\"sk-unavailable-description\">New mails you receive will appear here.</p>"))
        #expect(output.contains("Refresh</button>"), "the call to action is a real button")
    }

    @Test func titleAndSymbolWithAnOptionalDescription() {
        let plain = html(ContentUnavailableView("Product unavailable", systemImage: "cart"))
        #expect(plain.contains(">Product unavailable</span>") && plain.contains("data-symbol=\"cart\""))
        #expect(plain.contains("<p class=\"sk-unavailable-description\"></p>"), "empty, and hidden by the stylesheet")
        #expect(Stylesheet.css.contains(".sk-unavailable-description:empty,.sk-unavailable-actions:empty{display:none}"))
        let described = html(ContentUnavailableView("Offline", systemImage: "cloud.fill", description: Text("<b>Try again</b>")))
        #expect(described.contains("&lt;b&gt;Try again&lt;/b&gt;"), "text is escaped")
    }
}
