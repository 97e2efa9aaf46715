import Foundation

/// A bar chart drawn on the server as inline SVG: nothing is fetched, no script runs. One group
/// of bars per label (a day, an hour), one bar per series, stacked or side by side. The figure
/// carries its text alternatives: a spoken summary on the SVG (`role="img"`) and the numbers in
/// a table under a disclosure, for those who would rather read. Here, beside `HTMLWriter`, so the
/// store's `/manage` charts and the backend's dashboard draw the same chart; StoreViews makes it a view.
public struct BarChart: Sendable {
    /// One row of data: a named set of values, one per label, drawn in its own color.
    public struct Series: Sendable {
        /// The series' name, shown in the legend, the tooltips and the table's header.
        public var name: String
        /// A class from the page's stylesheet that fills the bars (`mg-bar-a`, …).
        public var cssClass: String
        /// One value per label; missing, negative or non-finite values count as zero.
        public var values: [Double]
        /// A series named `name`, filled by `cssClass`.
        public init(name: String, cssClass: String, values: [Double]) {
            self.name = name
            self.cssClass = cssClass
            self.values = values
        }
    }

    /// Prefix of the figure's element IDs; must be unique on the page.
    public let id: String
    /// The chart's heading, which also labels the figure.
    public let title: String
    /// The spoken description of the chart, read instead of the bars.
    public let summary: String
    /// The groups along the axis, in order (a day, an hour); only the first and last are printed
    /// under it, all of them in the tooltips and the table.
    public let labels: [String]
    /// The data series, one bar per series in each group.
    public let series: [Series]
    /// True to stack each group's bars, false to draw them side by side.
    public let stacked: Bool
    /// How a value reads in the table and the tooltips.
    public let format: @Sendable (Double) -> String
    /// Draws negative values below a zero line (a movement chart's churn); otherwise they count as zero.
    public var allowsNegative = false
    /// Adds the numbers as a table under a disclosure; off where the page prints a fuller table of its own.
    public var showsTable = true

    /// A chart of `series` over `labels`; values read as whole numbers, else with two decimals.
    public init(id: String, title: String, summary: String, labels: [String], series: [Series], stacked: Bool = false,
                format: @escaping @Sendable (Double) -> String = { $0 == $0.rounded() ? String(Int64($0)) : String(format: "%.2f", $0) }) {
        self.id = id
        self.title = title
        self.summary = summary
        self.labels = labels
        self.series = series
        self.stacked = stacked
        self.format = format
    }

    /// A `figure` with the SVG, its legend, and the numbers in a table under a disclosure.
    public func render(_ html: HTMLWriter) {
        let width = 720.0, height = 220.0, left = 44.0, bottom = 28.0, top = 10.0
        let count = max(1, labels.count)
        let negative = allowsNegative
        let value: (Int, Int) -> Double = { s, i in
            let v = i < series[s].values.count ? series[s].values[i] : 0
            return v.isFinite ? (negative ? v : max(0, v)) : 0
        }
        let peaks = (0..<labels.count).map { i in
            stacked ? series.indices.reduce(0) { $0 + max(0, value($1, i)) } : series.indices.map { max(0, value($0, i)) }.max() ?? 0
        }
        let troughs = (0..<labels.count).map { i in
            stacked ? series.indices.reduce(0) { $0 + min(0, value($1, i)) } : series.indices.map { min(0, value($0, i)) }.min() ?? 0
        }
        let trough = -(troughs.min() ?? 0)
        let peak = max(trough > 0 ? 0 : 1, peaks.max() ?? 1)
        let plotHeight = height - bottom - top
        // The zero line sits above the negative part: all of the plot when nothing is negative.
        let zeroY = top + plotHeight * peak / max(1e-9, peak + trough)
        let scale = plotHeight / max(1e-9, peak + trough)
        let slot = (width - left) / Double(count)
        let barWidth = max(1, stacked || series.isEmpty ? slot * 0.8 : slot * 0.8 / Double(series.count))
        html.open("figure", [("class", "mg-figure"), ("aria-labelledby", "\(id)-title")])
        html.element("h3", [("id", "\(id)-title")], text: title)
        html.open("svg", [("class", "mg-chart"), ("viewBox", "0 0 \(Int(width)) \(Int(height))"), ("role", "img"),
                          ("aria-label", summary), ("xmlns", "http://www.w3.org/2000/svg")])
        html.element("title", text: summary)
        // Axis and the peak's gridline.
        html.open("line", [("class", "mg-axis"), ("x1", n(left)), ("y1", n(zeroY)), ("x2", n(width)), ("y2", n(zeroY))])
        html.close("line")
        if peak > 0 { html.element("text", [("x", "2"), ("y", n(top + 10))], text: format(peak)) }
        html.element("text", [("x", "2"), ("y", n(zeroY))], text: "0")
        if trough > 0 { html.element("text", [("x", "2"), ("y", n(top + plotHeight))], text: format(-trough)) }
        for i in 0..<labels.count {
            var up = zeroY, down = zeroY
            for s in series.indices {
                let v = value(s, i)
                guard v != 0 else { continue }
                let h = scale * abs(v)
                let x = left + slot * Double(i) + slot * 0.1 + (stacked ? 0 : barWidth * Double(s))
                let y: Double
                if v > 0 {
                    y = stacked ? up - h : zeroY - h
                    if stacked { up -= h }
                } else {
                    y = stacked ? down : zeroY
                    if stacked { down += h }
                }
                html.open("rect", [("class", series[s].cssClass), ("x", n(x)), ("y", n(y)), ("width", n(barWidth)), ("height", n(h))])
                html.element("title", text: "\(labels[i]): \(series[s].name) \(format(v))")
                html.close("rect")
            }
        }
        // First and last label under the axis.
        if let first = labels.first {
            html.element("text", [("x", n(left)), ("y", n(height - 8))], text: first)
        }
        if labels.count > 1, let last = labels.last {
            html.element("text", [("x", n(width)), ("y", n(height - 8)), ("text-anchor", "end")], text: last)
        }
        html.close("svg")
        html.element("ul", [("class", "mg-legend")]) {
            for item in series {
                html.element("li") {
                    html.open("svg", [("class", "mg-swatch"), ("viewBox", "0 0 10 10"), ("aria-hidden", "true")])
                    html.open("rect", [("class", item.cssClass), ("width", "10"), ("height", "10")])
                    html.close("rect")
                    html.close("svg")
                    html.text(item.name)
                }
            }
        }
        if showsTable { numbers(html, value: value) }
        html.close("figure")
    }

    private func numbers(_ html: HTMLWriter, value: (Int, Int) -> Double) {
        html.element("details", [("class", "mg-details")]) {
            html.element("summary", text: "\(title): the numbers")
            html.element("div", [("class", "mg-scroll")]) {
                html.element("table", [("class", "mg-table")]) {
                    html.element("thead") {
                        html.element("tr") {
                            html.element("th", [("scope", "col")], text: "When")
                            for item in series { html.element("th", [("scope", "col")], text: item.name) }
                        }
                    }
                    html.element("tbody") {
                        for i in 0..<labels.count where series.indices.contains(where: { value($0, i) != 0 }) {
                            html.element("tr") {
                                html.element("th", [("scope", "row")], text: labels[i])
                                for s in series.indices { html.element("td", text: format(value(s, i))) }
                            }
                        }
                    }
                }
            }
        }
    }

    private func n(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
