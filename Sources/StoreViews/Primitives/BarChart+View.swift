import StoreShared

/// The shared bar chart (`StoreShared.BarChart`) as a view, so it can stand in any view body.
extension BarChart: PrimitiveView {
    /// Draws the chart; it reads nothing from the environment.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        render(html)
    }
}
