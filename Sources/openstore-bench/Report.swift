import Foundation

/// The table every run ends with: each figure beside the limit it is measured against, the ratio
/// (which holds across machines, unlike the absolute figures), the target and whether it is met.
struct Report {
    struct Row {
        var figure: String
        var measured: String
        var limit: String = "(is the limit)"
        var ratio: String = ""
        var target: String = ""
        var met: String = ""
    }

    var rows: [Row] = []

    mutating func add(_ row: Row) { rows.append(row) }

    /// A rate compared with its limit; `atLeast` is the ratio target, if any.
    mutating func add(_ figure: String, _ value: Double, unit: String, limitName: String, limit: Double, atLeast: Double? = nil) {
        let ratio = value / limit
        add(Row(
            figure: figure, measured: "\(Self.rate(value)) \(unit)", limit: "\(limitName) \(Self.rate(limit))",
            ratio: Self.ratio(ratio), target: atLeast.map { "≥ \(Self.ratio($0))" } ?? "",
            met: atLeast.map { ratio >= $0 ? "yes" : "NO" } ?? ""))
    }

    var failures: Int { rows.filter { $0.met == "NO" }.count }

    func render() -> String {
        let header = Row(figure: "figure", measured: "measured", limit: "limit", ratio: "ratio", target: "target", met: "met?")
        let all = [header] + rows
        func width(_ column: (Row) -> String) -> Int { all.map { column($0).count }.max() ?? 0 }
        let widths = [width(\.figure), width(\.measured), width(\.limit), width(\.ratio), width(\.target), width(\.met)]
        func line(_ row: Row) -> String {
            let cells = [row.figure, row.measured, row.limit, row.ratio, row.target, row.met]
            return "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// `12,345` for rates: thousands separated, no decimals.
    static func rate(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        let digits = String(Int(value.rounded()))
        var out = ""
        for (index, char) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { out.append(",") }
            out.append(char)
        }
        return String(out.reversed()) + ""
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
    static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
}
