/// One localized name and description (a product's or a group's `localizations[]` entry).
public struct CatalogLocalization: Sendable, Equatable {
    /// `en_US`, `fr_FR`, or a bare language such as `ar`.
    public var locale: String
    /// `displayName`: the name customers see (StoreKit's `Product.displayName`, or the group's name).
    public var displayName: String
    /// `description`: the text customers see (StoreKit's `Product.description`); may be empty.
    public var description: String

    /// One localization as the file gives it.
    public init(locale: String, displayName: String, description: String) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}

extension Array where Element == CatalogLocalization {
    /// The best entry for `locale`, the way a store picks text for a customer: the exact locale
    /// (`fr_FR`), else the bare language (`fr`), else another region of the language (`fr_CA`),
    /// else `en_US`, else the first. `-` and `_` are treated alike, and case is ignored.
    func bestMatch(for locale: String) -> CatalogLocalization? {
        guard !isEmpty else { return nil }
        func normalized(_ id: String) -> String {
            id.replacingOccurrences(of: "-", with: "_").lowercased()
        }
        func language(_ id: String) -> String {
            String(normalized(id).split(separator: "_", maxSplits: 1).first ?? "")
        }
        let wanted = normalized(locale)
        if let exact = first(where: { normalized($0.locale) == wanted }) { return exact }
        let wantedLanguage = language(locale)
        if !wantedLanguage.isEmpty, let bare = first(where: { normalized($0.locale) == wantedLanguage }) {
            return bare
        }
        if !wantedLanguage.isEmpty, let sameLanguage = first(where: { language($0.locale) == wantedLanguage }) {
            return sameLanguage
        }
        if let english = first(where: { normalized($0.locale) == "en_us" }) { return english }
        return first
    }
}
