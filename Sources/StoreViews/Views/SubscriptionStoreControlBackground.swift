/// Mirrors StoreKit's `SubscriptionStoreControlBackground`: "the background layer below the
/// subscribe controls, and above any background in an in-app subscription store". A standard
/// effect, or (through the `ShapeStyle` overload of the modifier) any style.
public struct SubscriptionStoreControlBackground: Sendable {
    enum Effect: String, Sendable { case automatic, gradientMaterial, gradientMaterialOnScroll, style }
    let effect: Effect
    let style: AnyShapeStyle?

    /// Mirrors `.automatic`: "based on the subscription store's context" — the store's own
    /// material, or the `backgroundStyle(_:)` given around it.
    public static var automatic: SubscriptionStoreControlBackground { .init(effect: .automatic, style: nil) }
    /// Mirrors `.gradientMaterial`: "a material background, where the material effect fades into
    /// the background" (the material fades in from the top of the controls).
    public static var gradientMaterial: SubscriptionStoreControlBackground { .init(effect: .gradientMaterial, style: nil) }
    /// Mirrors `.gradientMaterialOnScroll`: "a gradient material background which only appears after
    /// someone scrolls the subscription store". Browsers with scroll-driven animations fade it in
    /// over the first 4 rem of scrolling; others show it as `gradientMaterial`.
    public static var gradientMaterialOnScroll: SubscriptionStoreControlBackground { .init(effect: .gradientMaterialOnScroll, style: nil) }

    /// The controls area's extra CSS class, for the effects drawn by the stylesheet.
    var cssClass: String? {
        switch effect {
        case .gradientMaterial, .gradientMaterialOnScroll: "sk-controls-background-\(effect.rawValue)"
        case .automatic, .style: nil
        }
    }
}

extension View {
    /// Mirrors `subscriptionStoreControlBackground(_:)` with a standard effect: "Set a standard
    /// effect to use for the background of subscription store view controls within the view."
    /// It takes precedence over `backgroundStyle(_:)`, except `.automatic`, which defers to it.
    public func subscriptionStoreControlBackground(_ backgroundStyle: SubscriptionStoreControlBackground) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreControlBackground = backgroundStyle.effect == .automatic ? nil : backgroundStyle }
    }

    /// Mirrors `subscriptionStoreControlBackground(_:)` with a style ("You can also use some
    /// `ShapeStyle` value instead of one of these styles"): the style fills the controls area.
    public func subscriptionStoreControlBackground(_ backgroundStyle: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(backgroundStyle)
        return transformEnvironment { $0.subscriptionStoreControlBackground = .init(effect: .style, style: erased) }
    }
}
