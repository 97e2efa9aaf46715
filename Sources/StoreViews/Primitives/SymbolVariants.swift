/// Mirrors SwiftUI's `SymbolVariants`: "a variant of a symbol" — filled, in a circle, slashed —
/// applied to every `Image(systemName:)` inside a view by `symbolVariant(_:)`.
public struct SymbolVariants: Hashable, Sendable {
    struct Parts: OptionSet, Hashable, Sendable {
        let rawValue: Int
        static let circle = Parts(rawValue: 1), square = Parts(rawValue: 2), rectangle = Parts(rawValue: 4)
        static let fill = Parts(rawValue: 8), slash = Parts(rawValue: 16)
    }
    let parts: Parts

    /// Mirrors `SymbolVariants.none`: no variant.
    public static let none = SymbolVariants(parts: [])
    /// Mirrors `.circle`: "encapsulates the symbol in a circle".
    public static let circle = SymbolVariants(parts: .circle)
    /// Mirrors `.square`: the symbol in a square.
    public static let square = SymbolVariants(parts: .square)
    /// Mirrors `.rectangle`: the symbol in a rectangle.
    public static let rectangle = SymbolVariants(parts: .rectangle)
    /// Mirrors `.fill`: "a variant that fills the symbol".
    public static let fill = SymbolVariants(parts: .fill)
    /// Mirrors `.slash`: the symbol struck through.
    public static let slash = SymbolVariants(parts: .slash)

    /// Mirrors the instance `circle`: this variant, in a circle (`.fill.circle`).
    public var circle: SymbolVariants { SymbolVariants(parts: parts.union(.circle)) }
    /// Mirrors the instance `square`.
    public var square: SymbolVariants { SymbolVariants(parts: parts.union(.square)) }
    /// Mirrors the instance `rectangle`.
    public var rectangle: SymbolVariants { SymbolVariants(parts: parts.union(.rectangle)) }
    /// Mirrors the instance `fill`: "a filled version of the variant" (`.circle.fill`).
    public var fill: SymbolVariants { SymbolVariants(parts: parts.union(.fill)) }
    /// Mirrors the instance `slash`.
    public var slash: SymbolVariants { SymbolVariants(parts: parts.union(.slash)) }

    /// Mirrors `contains(_:)`: whether every part of `other` is in this variant.
    public func contains(_ other: SymbolVariants) -> Bool { parts.isSuperset(of: other.parts) }

    /// The name of `name`'s variant in SF Symbols' order (`heart.slash.circle.fill`), when the
    /// built-in set draws it; else with only its fill; else the plain name, as SwiftUI applies a
    /// variant only to "those symbols that have a filled variant".
    func apply(to name: String, drawable: (String) -> Bool) -> String {
        guard !parts.isEmpty else { return name }
        var suffixes: [String] = []
        if parts.contains(.slash) { suffixes.append("slash") }
        if parts.contains(.circle) { suffixes.append("circle") } else if parts.contains(.square) { suffixes.append("square") }
        else if parts.contains(.rectangle) { suffixes.append("rectangle") }
        if parts.contains(.fill) { suffixes.append("fill") }
        let present = Set(name.split(separator: ".").dropFirst().map(String.init))
        let wanted = suffixes.filter { !present.contains($0) }
        // The whole variant, else only its fill (the commonest one the built-in set draws).
        for candidate in [wanted, wanted.contains("fill") ? ["fill"] : []] where !candidate.isEmpty {
            let variant = ([name] + candidate).joined(separator: ".")
            if drawable(variant) { return variant }
        }
        return name
    }
}

extension View {
    /// Mirrors `symbolVariant(_:)`: "Makes symbols within the view show a particular variant". Nested
    /// modifiers add up (`.circle` around `.fill` draws `.circle.fill`); `.none` has no effect —
    /// set `\.symbolVariants` to `.none` with `environment(_:_:)` to clear them.
    public func symbolVariant(_ variant: SymbolVariants) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.symbolVariants = SymbolVariants(parts: $0.symbolVariants.parts.union(variant.parts)) }
    }
}
