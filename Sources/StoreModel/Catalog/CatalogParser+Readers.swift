import Foundation

/// CatalogParser's typed readers: each records a fault with its JSON path and returns nil on a
/// mismatch, so one pass reports every fault of a broken file.
extension CatalogParser {
    // MARK: - Typed readers (each records a fault and returns nil on a mismatch)

    mutating func fault(_ path: String, _ message: String) {
        findings.append(Finding(path: path, message: message, isWarning: false))
        hasFaults = true
    }

    mutating func warn(_ path: String, _ message: String) {
        findings.append(Finding(path: path, message: message, isWarning: true))
    }

    func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func quoted(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        if escaped.count > 80 { escaped = String(escaped.prefix(77)) + "..." }
        return "\"\(escaped)\""
    }

    mutating func mismatch(_ expected: String, _ value: JSONValue, _ path: String) {
        fault(path, "expected \(expected), found \(value.typeName)")
    }

    mutating func object(_ value: JSONValue, _ path: String, allowNull: Bool = false) -> [(key: String, value: JSONValue)]? {
        if case let .object(members) = value { return members }
        if allowNull, case .null = value { return nil }
        mismatch("an object", value, path)
        return nil
    }

    /// The elements of an array; `null` counts as empty, other types are a fault.
    mutating func array(_ value: JSONValue, _ path: String) -> [JSONValue] {
        switch value {
        case let .array(elements): return elements
        case .null: return []
        default:
            mismatch("an array", value, path)
            return []
        }
    }

    mutating func string(_ value: JSONValue, _ path: String) -> String? {
        if case let .string(text) = value { return text }
        mismatch("a string", value, path)
        return nil
    }

    /// A string where `null` means absent.
    mutating func optionalString(_ value: JSONValue, _ path: String) -> String? {
        if case .null = value { return nil }
        return string(value, path)
    }

    mutating func nonEmptyString(_ value: JSONValue, _ path: String) -> String? {
        guard let text = string(value, path) else { return nil }
        if text.isEmpty {
            fault(path, "must not be empty")
            return nil
        }
        return text
    }

    mutating func optionalBool(_ value: JSONValue, _ path: String) -> Bool? {
        switch value {
        case let .bool(flag): return flag
        case .null: return nil
        case let .number(raw) where raw == "0" || raw == "1": return raw == "1"
        default:
            mismatch("a boolean", value, path)
            return nil
        }
    }

    mutating func integer(_ value: JSONValue, _ path: String) -> Int? {
        guard case let .number(raw) = value else {
            mismatch("an integer", value, path)
            return nil
        }
        if let exact = Int(raw) { return exact }
        if let double = Double(raw), double.rounded() == double, abs(double) < 1e15 { return Int(double) }
        fault(path, "expected an integer, found number \(raw)")
        return nil
    }

    mutating func double(_ value: JSONValue, _ path: String) -> Double? {
        guard case let .number(raw) = value, let number = Double(raw) else {
            mismatch("a number", value, path)
            return nil
        }
        guard number.isFinite else {  // 1e400: no date, and nothing JSON could write back
            fault(path, "expected a finite number, found \(raw)")
            return nil
        }
        return number
    }

    /// A period such as `P1M`; anything else is a fault.
    mutating func period(_ value: JSONValue, _ path: String) -> SubscriptionPeriod? {
        guard let text = string(value, path) else { return nil }
        guard let period = SubscriptionPeriod(iso8601: text) else {
            fault(path, "\(quoted(text)) is not an ISO 8601 period")
            return nil
        }
        return period
    }

    /// A price string such as `"4.99"`, kept exact as `Decimal`. Only plain decimal text is
    /// accepted (no exponent, grouping or currency sign), and never a negative amount. An empty
    /// string is what Xcode writes for a price never filled in: a price of 0, with a warning.
    mutating func price(_ value: JSONValue, _ path: String) -> Decimal? {
        guard let text = string(value, path) else { return nil }
        if text.isEmpty {
            warn(path, "the price is empty (never filled in); read as 0, as Xcode shows an unset price")
            return 0
        }
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let isPlainDecimal = (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 30 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard isPlainDecimal, let amount = Decimal(string: String(body), locale: Locale(identifier: "en_US_POSIX")) else {
            fault(path, "\(quoted(text)) is not a decimal price")
            return nil
        }
        if negative && amount != 0 {
            fault(path, "\(quoted(text)) is a negative price")
            return nil
        }
        return amount
    }
}
