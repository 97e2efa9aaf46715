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
    /// A composed view renders whatever its `body` renders.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        body._render(context, html)
    }
}

extension Never: View {
    /// `Never` stands for "no body", the `Body` of primitive views.
    public typealias Body = Never
    /// Never called: a primitive view has no body to build.
    public var body: Never { fatalError("Never has no body") }
    /// Writes nothing; a `Never` value cannot exist.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {}
}

/// A view that draws its own HTML and has no body.
public protocol PrimitiveView: View where Body == Never {}

extension PrimitiveView {
    /// Traps if called: primitives draw through `_render` and have no body.
    public var body: Never { fatalError("\(Self.self) is primitive and renders itself") }
}

/// Nothing at all.
public struct EmptyView: PrimitiveView {
    /// An empty view, e.g. a builder's empty block.
    public init() {}
    /// Writes no HTML.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {}
}

/// Several views one after the other, as a `@ViewBuilder` block lists them.
public struct TupleView<each Content: View>: PrimitiveView {
    /// The views, in the order the builder listed them.
    public let value: (repeat each Content)
    /// Wraps the views of a builder block; `ViewBuilder.buildBlock` makes these.
    public init(_ value: repeat each Content) { self.value = (repeat each value) }
    /// Renders each view in turn, with no wrapper element.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        repeat (each value)._render(context, html)
    }
}

/// One of two views, as `if`/`else` in a `@ViewBuilder` block produces.
public enum ConditionalContent<TrueContent: View, FalseContent: View>: PrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    /// Renders whichever branch was taken, with no wrapper element.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        switch self {
        case .first(let view): view._render(context, html)
        case .second(let view): view._render(context, html)
        }
    }
}

extension Optional: View where Wrapped: View {
    /// An absent optional view draws nothing, so `if` without `else` works in a builder.
    public typealias Body = Never
    /// Never called: an optional view renders itself.
    public var body: Never { fatalError("Optional renders itself") }
    /// Renders the wrapped view, or nothing when it is nil.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if let view = self { view._render(context, html) }
    }
}

/// Any view, with its type erased: for collections of pages and for custom styles' bodies.
public struct AnyView: PrimitiveView {
    let draw: (RenderContext, HTMLWriter) -> Void
    /// Erases `view`'s type; it renders exactly as `view` does.
    public init<V: View>(_ view: V) {
        draw = { context, html in view._render(context, html) }
    }
    /// Renders the wrapped view.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) { draw(context, html) }
}

/// Views made from a collection, one per element.
public struct ForEach<Data: RandomAccessCollection, Content: View>: PrimitiveView {
    /// The elements to make a view for, in order.
    public let data: Data
    /// Makes the view for one element.
    public let content: (Data.Element) -> Content
    /// One view per element of `data`, as SwiftUI's `ForEach`.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
    /// SwiftUI's `ForEach(_:id:content:)`; pages render once, so the ID is accepted and not used.
    public init<ID: Hashable>(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, content: content)
    }
    /// Renders each element's view in order, with no wrapper element.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        for element in data { content(element)._render(context, html) }
    }
}

/// Groups views without adding markup, so modifiers can apply to all of them.
public struct Group<Content: View>: PrimitiveView {
    /// The grouped views.
    public let content: Content
    /// Groups the builder's views, as SwiftUI's `Group`.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Renders the content as is: a group adds no markup.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) { content._render(context, html) }
}

/// The result builder behind view bodies and content closures, as SwiftUI's `ViewBuilder`.
@resultBuilder
public enum ViewBuilder {
    /// An empty block is an `EmptyView`.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// A block of one view is that view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// A block of several views is a `TupleView` of them.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content> {
        TupleView(repeat each content)
    }
    /// Passes a view through unchanged.
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// A bare string in a builder is a `Text`, as in SwiftUI's `Button("Buy")` labels.
    public static func buildExpression(_ text: String) -> Text { Text(text) }
    /// An `if` without `else`: the view, or nil when the condition is false.
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    /// The `if` branch of an `if`/`else` or `switch`.
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalContent<T, F> { .first(first) }
    /// The `else` branch of an `if`/`else` or `switch`.
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalContent<T, F> { .second(second) }
    /// A `for` loop's views, rendered one after another.
    public static func buildArray<Content: View>(_ content: [Content]) -> ForEach<[Content], Content> {
        ForEach(content) { $0 }
    }
    /// An `if #available` branch, type-erased as SwiftUI does.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}
