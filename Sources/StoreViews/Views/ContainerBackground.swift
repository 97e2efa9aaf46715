import StoreShared
/// Where a background goes in a subscription store.
public struct ContainerBackgroundPlacement: Hashable, Sendable {
    let name: String
    /// Automatic: the whole store, as on iPhone.
    public static let subscriptionStore = ContainerBackgroundPlacement(name: "subscriptionStore")
    /// Behind the marketing content only.
    public static let subscriptionStoreHeader = ContainerBackgroundPlacement(name: "subscriptionStoreHeader")
    /// Behind the whole store, top to bottom.
    public static let subscriptionStoreFullHeight = ContainerBackgroundPlacement(name: "subscriptionStoreFullHeight")
}

/// Backgrounds that content inside a store asked for: SwiftUI passes them *up* to the container
/// (a preference), so the store reads them after drawing its marketing content.
final class ContainerBackgrounds {
    var css: [ContainerBackgroundPlacement: String] = [:]
    var views: [ContainerBackgroundPlacement: AnyView] = [:]
}

/// Content that asked for a container background; made by `containerBackground(_:for:)`.
public struct ContainerBackgroundView<Content: View>: PrimitiveView {
    let content: Content
    let placement: ContainerBackgroundPlacement
    let css: String?
    let view: AnyView?

    /// Hands the background to the subscription store whose marketing content this is (ignored
    /// anywhere else), then renders the content unchanged.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if let collector = context.session.backgroundCollector {
            if let css { collector.css[placement] = css }
            if let view { collector.views[placement] = view }
        }
        content._render(context, html)
    }
}

extension RenderSession {
    var backgroundCollector: ContainerBackgrounds? {
        get { collectors.last }
    }
}

extension View {
    /// Mirrors SwiftUI's `containerBackground(_:for:)`: fills `placement` of the enclosing subscription store.
    public func containerBackground(_ style: some ShapeStyle, for placement: ContainerBackgroundPlacement) -> ContainerBackgroundView<Self> {
        ContainerBackgroundView(content: self, placement: placement, css: style.cssBackground, view: nil)
    }

    /// Mirrors `containerBackground(for:content:)`: draws a view as the background of `placement`.
    public func containerBackground<V: View>(for placement: ContainerBackgroundPlacement, @ViewBuilder content: () -> V) -> ContainerBackgroundView<Self> {
        ContainerBackgroundView(content: self, placement: placement, css: nil, view: AnyView(content()))
    }
}
