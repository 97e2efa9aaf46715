/// Numbers that go into CSS. A `Double` from page code may be infinite or NaN, and `Int(_:)` traps
/// on those: a server must never crash on a page's arithmetic.
enum CSSNumber {
    /// Whole pixels, clamped to a sane range; nil when the value isn't finite.
    static func pixels(_ value: Double) -> Int? {
        guard value.isFinite else { return nil }
        return Int(min(max(value, -100_000), 100_000).rounded())
    }

    /// A fraction in 0…1 (NaN counts as 0).
    static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
