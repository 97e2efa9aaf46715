/// What the subscribe button says. Chain members to combine them: `.multiline.displayName.price`.
public struct SubscriptionStoreButtonLabel: Hashable, Sendable {
    enum Layout: Hashable, Sendable { case automatic, multiline, singleLine }
    struct Parts: OptionSet, Hashable, Sendable {
        let rawValue: Int
        static let action = Parts(rawValue: 1)
        static let displayName = Parts(rawValue: 2)
        static let price = Parts(rawValue: 4)
    }
    var layout: Layout
    var parts: Parts

    /// Mirrors `SubscriptionStoreButtonLabel.automatic`: verb and price, or name and price with a button per plan.
    public static let automatic = SubscriptionStoreButtonLabel(layout: .automatic, parts: [])
    /// Mirrors `.multiline`: the chosen parts on separate lines.
    public static let multiline = SubscriptionStoreButtonLabel(layout: .multiline, parts: [])
    /// Mirrors `.singleLine`: the chosen parts on one line, joined by " · ".
    public static let singleLine = SubscriptionStoreButtonLabel(layout: .singleLine, parts: [])
    /// Mirrors `.action`: the verb ("Subscribe", "Try It Free", "Start Offer").
    public static let action = SubscriptionStoreButtonLabel(layout: .automatic, parts: .action)
    /// Mirrors `.displayName`: the plan's name.
    public static let displayName = SubscriptionStoreButtonLabel(layout: .automatic, parts: .displayName)
    /// Mirrors `.price`: the price per period, after the offer's terms when there is one.
    public static let price = SubscriptionStoreButtonLabel(layout: .automatic, parts: .price)

    /// This label with its parts on separate lines.
    public var multiline: Self { Self(layout: .multiline, parts: parts) }
    /// This label with its parts on one line.
    public var singleLine: Self { Self(layout: .singleLine, parts: parts) }
    /// This label plus the verb.
    public var action: Self { Self(layout: layout, parts: parts.union(.action)) }
    /// This label plus the plan's name.
    public var displayName: Self { Self(layout: layout, parts: parts.union(.displayName)) }
    /// This label plus the price.
    public var price: Self { Self(layout: layout, parts: parts.union(.price)) }

    /// The lines of the label for a plan. With several subscribe buttons, `action` alone falls
    /// back to the plan's name, as Apple documents.
    func lines(for option: SubscriptionStoreControlStyleConfiguration.Option, manyButtons: Bool) -> (lines: [String], spoken: String) {
        let product = option.subscription
        let offer = option.activeOffer
        let verb = offer?.paymentMode == .freeTrial ? "Try It Free" : (offer != nil ? "Start Offer" : "Subscribe")
        let period = product.subscription.map { PriceText.shortPeriod($0.subscriptionPeriod) } ?? ""
        var price = product.displayPrice + period
        var spokenPrice = PriceText.spoken(product)
        if let offer {
            price = "\(PriceText.offer(offer)), then \(price)"
            spokenPrice = "\(PriceText.offer(offer)), then \(spokenPrice)"
        }
        var wanted = parts.isEmpty ? (manyButtons ? [.displayName, .price] : [.action, .price]) : parts
        if manyButtons, wanted == .action { wanted = .displayName }
        var lines: [String] = []
        var spoken: [String] = []
        if wanted.contains(.action) { lines.append(verb); spoken.append(verb) }
        if wanted.contains(.displayName) { lines.append(product.displayName); spoken.append(product.displayName) }
        if wanted.contains(.price) { lines.append(price); spoken.append(spokenPrice) }
        if layout == .singleLine { lines = [lines.joined(separator: " · ")] }
        return (lines, spoken.joined(separator: ", "))
    }
}
