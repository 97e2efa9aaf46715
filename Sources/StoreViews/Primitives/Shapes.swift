import StoreShared
/// A filled rectangle that takes all the room it is given: backgrounds, color bands.
public struct Rectangle: PrimitiveView {
    let fill: AnyShapeStyle?
    let radius: Double
    public init() {
        fill = nil
        radius = 0
    }
    init(fill: AnyShapeStyle?, radius: Double) {
        self.fill = fill
        self.radius = radius
    }
    public func fill(_ style: some ShapeStyle) -> Rectangle { Rectangle(fill: AnyShapeStyle(style), radius: radius) }
    public func cornerRadius(_ radius: Double) -> Rectangle { Rectangle(fill: fill, radius: radius) }

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
    public func callAsFunction() { action() }
}

/// A "Restore Purchases" button outside a store view (StoreKit's `AppStore.sync()`).
public struct RestorePurchasesButton: PrimitiveView {
    let title: String
    public init(_ title: String = "Restore Purchases") { self.title = title }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        ActionForm(url: context.session.actionURL, action: context.session.actions.registerFixed("restore"), className: "sk-store-button sk-restore")
            .render(context, html) { html.text(title) }
    }
}
