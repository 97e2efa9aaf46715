import StoreKit
import Testing

/// The article's paywall as a page of the web store (`/store/paywall`): the status line per
/// subscription as the StoreKit 1 app sees it, "Restore purchases" and "Not now".
@Suite(.timeLimit(.minutes(2))) struct PaywallPageTests {
    @Test func statusLinesRestoreAndNotNow() async throws {
        try await SK1TestStore.with { store in
            let world = try await store.makeWorld()
            let query = "?customer=lou&world=\(world)"
            let index = try await store.page("/store" + query)
            #expect(index.status == 200 && index.html.contains("/store/paywall"))

            var device = Device(store, customer: "lou", world: world)
            try await device.run {
                device.manager.start()
                device.manager.requestProducts(["sk1.weekly"])
            }
            _ = await device.next()
            let before = try await store.page("/store/paywall" + query)
            #expect(before.status == 200)
            #expect(before.html.contains("Get Premium Membership") && before.html.contains("Subscription not purchased: Premium Weekly"))
            #expect(before.html.contains("Subscription not purchased: Premium Monthly") && before.html.contains("Not now"))

            // Bought in the app (StoreKit 1): the page shows it active.
            try await device.run { device.manager.buy(try #require(device.manager.product("sk1.weekly"))) }
            _ = await device.next(3)
            let after = try await store.page("/store/paywall" + query)
            #expect(after.html.contains("Subscription active: Premium Weekly until:"))

            let restored = try await store.page("/store/paywall/actions" + query, form: ["action": "restore"])
            #expect(restored.status == 200 && restored.html.contains("Purchases restored"))
            // "Not now" is a button whose closure dismisses the paywall: back to the store's index.
            let notNow = try #require(Self.buttonValue(titled: "Not now", in: restored.html))
            let dismissed = try await store.page("/store/paywall/actions" + query, form: ["action": notNow])
            #expect(dismissed.status == 200 && dismissed.html.contains("Store pages"))
            try await device.run { device.manager.stop() }
        }
    }

    /// The form value of the button whose label is `title` (`<button name="action" value="…">title`).
    static func buttonValue(titled title: String, in html: String) -> String? {
        guard let label = html.range(of: title) else { return nil }
        let before = html[..<label.lowerBound]
        guard let button = before.range(of: "name=\"action\" value=\"", options: .backwards) else { return nil }
        return String(html[button.upperBound...].prefix { $0 != "\"" })
    }
}
