/// A customer's locale is a locale identifier as `.storekit` files and StoreKit write them
/// (`en_US`, `fr_FR`, `zh_Hans_CN`): pages, prices and policies are looked up by it, so anything
/// else (markup, stray punctuation) is refused where it enters rather than stored and echoed.
enum LocaleIdentifier {
    /// `^[a-z]{2,3}([_-][A-Za-z0-9]{2,8})*$`, the pattern `/openapi.json` documents for `Locale`.
    static func isValid(_ text: String) -> Bool {
        let parts = text.utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ (97...122).contains($0) }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
        }
    }
}
