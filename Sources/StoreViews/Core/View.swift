import StoreShared
/// A piece of a store page, declared as in SwiftUI: a value whose `body` is made of other views.
///
/// Views are values built fresh on each render, so a page's declaration is the same code a SwiftUI
/// developer writes. Primitive views (text, stacks, the store views) draw HTML themselves through
/// `_render`; everything else renders its `body`.
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
    /// Writes the view's HTML. Only primitives implement it; composed views inherit `body`'s.
    func _render(_ context: RenderContext, _ html: HTMLWriter)
}

extension View {
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        body._render(context, html)
    }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {}
}

/// A view that draws its own HTML and has no body.
public protocol PrimitiveView: View where Body == Never {}

extension PrimitiveView {
    public var body: Never { fatalError("\(Self.self) is primitive and renders itself") }
}

/// Nothing at all.
public struct EmptyView: PrimitiveView {
    public init() {}
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {}
}

/// Several views one after the other, as a `@ViewBuilder` block lists them.
public struct TupleView<each Content: View>: PrimitiveView {
    public let value: (repeat each Content)
    public init(_ value: repeat each Content) { self.value = (repeat each value) }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        repeat (each value)._render(context, html)
    }
}

/// One of two views, as `if`/`else` in a `@ViewBuilder` block produces.
public enum ConditionalContent<TrueContent: View, FalseContent: View>: PrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        switch self {
        case .first(let view): view._render(context, html)
        case .second(let view): view._render(context, html)
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("Optional renders itself") }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if let view = self { view._render(context, html) }
    }
}

/// Any view, with its type erased: for collections of pages and for custom styles' bodies.
public struct AnyView: PrimitiveView {
    let draw: (RenderContext, HTMLWriter) -> Void
    public init<V: View>(_ view: V) {
        draw = { context, html in view._render(context, html) }
    }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) { draw(context, html) }
}

/// Views made from a collection, one per element.
public struct ForEach<Data: RandomAccessCollection, Content: View>: PrimitiveView {
    public let data: Data
    public let content: (Data.Element) -> Content
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
    public init<ID: Hashable>(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, content: content)
    }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        for element in data { content(element)._render(context, html) }
    }
}

/// Groups views without adding markup, so modifiers can apply to all of them.
public struct Group<Content: View>: PrimitiveView {
    public let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) { content._render(context, html) }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content> {
        TupleView(repeat each content)
    }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// A bare string in a builder is a `Text`, as in SwiftUI's `Button("Buy")` labels.
    public static func buildExpression(_ text: String) -> Text { Text(text) }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalContent<T, F> { .first(first) }
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalContent<T, F> { .second(second) }
    public static func buildArray<Content: View>(_ content: [Content]) -> ForEach<[Content], Content> {
        ForEach(content) { $0 }
    }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}
