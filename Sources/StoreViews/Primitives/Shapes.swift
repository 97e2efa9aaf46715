import StoreShared
/// A filled rectangle that takes all the room it is given: backgrounds, color bands.
public struct Rectangle: PrimitiveView {
    let fill: AnyShapeStyle?
    let radius: Double
    /// An unfilled rectangle with square corners; chain `fill(_:)` and `cornerRadius(_:)`.
    public init() {
        fill = nil
        radius = 0
    }
    init(fill: AnyShapeStyle?, radius: Double) {
        self.fill = fill
        self.radius = radius
    }
    /// Mirrors `Shape.fill(_:)`: the same rectangle filled with `style`.
    public func fill(_ style: some ShapeStyle) -> Rectangle { Rectangle(fill: AnyShapeStyle(style), radius: radius) }
    /// Mirrors `cornerRadius(_:)`: the same rectangle with rounded corners.
    public func cornerRadius(_ radius: Double) -> Rectangle { Rectangle(fill: fill, radius: radius) }

    /// A `div` that fills its container, with the fill and rounded corners as inline CSS.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        var css = "width:100%;height:100%;min-height:1px"
        if let fill { css += ";background:\(fill.cssBackground)" }
        if radius > 0, let pixels = CSSNumber.pixels(radius) { css += ";border-radius:\(pixels)px" }
        html.element("div", [("class", "sk-rect"), ("style", css)], text: "")
    }
}

/// SwiftUI's `dismiss` action: closes a presented store. On the web the server answers by going
/// back to where the store was opened from.
public struct DismissAction {
    let action: () -> Void
    /// Closes the presented store, so `dismiss()` reads as in SwiftUI.
    public func callAsFunction() { action() }
}

/// A "Restore Purchases" button outside a store view (StoreKit's `AppStore.sync()`).
public struct RestorePurchasesButton: PrimitiveView {
    let title: String
    /// A restore button labelled `title`.
    public init(_ title: String = "Restore Purchases") { self.title = title }
    /// A one-button form posting `restore`, which the server resolves to `PageAction.restorePurchases`.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        ActionForm(url: context.session.actionURL, action: context.session.actions.registerFixed("restore"), className: "sk-store-button sk-restore")
            .render(context, html) { html.text(title) }
    }
}
