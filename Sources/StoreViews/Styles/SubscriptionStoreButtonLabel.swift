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

    /// Mirrors `SubscriptionStoreButtonLabel.automatic`: the verb with the price as a caption above
    /// the button, or name and price inside each button when there is a button per plan.
    public static let automatic = SubscriptionStoreButtonLabel(layout: .automatic, parts: [])
    /// Mirrors `.multiline`: the chosen parts on separate lines inside the button; alone, or with
    /// only `action` or `displayName`, the price is the second line.
    public static let multiline = SubscriptionStoreButtonLabel(layout: .multiline, parts: [])
    /// Mirrors `.singleLine`: the chosen parts on one line, joined by " · "; without `price`, the
    /// price is the caption above the button.
    public static let singleLine = SubscriptionStoreButtonLabel(layout: .singleLine, parts: [])
    /// Mirrors `.action`: the verb ("Subscribe", "Try It Free", "Start Offer"), the price as caption.
    public static let action = SubscriptionStoreButtonLabel(layout: .automatic, parts: .action)
    /// Mirrors `.displayName`: the plan's name, the price as caption.
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

    /// What the subscribe button says for a plan: the lines inside it, the caption above it, and
    /// its spoken name. With one subscribe button the automatic label is the action phrase with
    /// the price as a caption above it (WWDC23's store); `.multiline` moves the price into the
    /// label as its second line, and a label without `price` captions the price instead of
    /// dropping it ("Some button label configurations cause the button to have a caption, for
    /// example: `.displayName.singleLine`"). With several buttons, `action` alone falls back to
    /// the plan's name, as Apple documents.
    func text(for option: SubscriptionStoreControlStyleConfiguration.Option, manyButtons: Bool) -> SubscribeButtonText {
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
        var wanted = parts
        if wanted.isEmpty {
            switch layout {
            case .multiline: wanted = manyButtons ? [.displayName, .price] : [.action, .price]
            case .automatic: wanted = manyButtons ? [.displayName, .price] : .action
            case .singleLine: wanted = manyButtons ? .displayName : .action
            }
        }
        if manyButtons, wanted == .action { wanted = .displayName }
        // `.multiline.action`: "an action verb and the price … as two lines within the same label".
        if layout == .multiline, wanted == .action || wanted == .displayName { wanted.insert(.price) }
        var lines: [String] = []
        var spoken: [String] = []
        if wanted.contains(.action) { lines.append(verb); spoken.append(verb) }
        if wanted.contains(.displayName) { lines.append(product.displayName); spoken.append(product.displayName) }
        // The price is always said: inside the label, or as the caption (which the name repeats in words).
        spoken.append(spokenPrice)
        if wanted.contains(.price) { lines.append(price) }
        if layout == .singleLine { lines = [lines.joined(separator: " · ")] }
        return SubscribeButtonText(lines: lines, caption: wanted.contains(.price) ? nil : price, spoken: spoken.joined(separator: ", "))
    }
}

/// The words of one subscribe button: the label's lines, the optional caption shown above the
/// button, and the button's accessible name (the price in words, never "/yr").
struct SubscribeButtonText: Equatable {
    var lines: [String]
    var caption: String?
    var spoken: String
}
