/// Plain-text tables of a catalog for `openstore catalog show`: products, subscription groups by
/// level, and every offer, with prices formatted for one storefront. Columns are aligned with
/// spaces, so the output reads well in a terminal and diffs cleanly in tests.
public enum CatalogTable {
    /// The whole catalog as text, prices formatted for `storefront`: what `openstore catalog show` prints.
    public static func render(_ catalog: Catalog, storefront: Storefront) -> String {
        var lines: [String] = []
        var title = "Catalog"
        if let identifier = catalog.identifier { title += " \(identifier)" }
        if let version = catalog.formatVersion { title += ", format \(version)" }
        title += ", storefront \(storefront.countryCode) (\(storefront.id), \(storefront.currency), \(storefront.locale))"
        lines.append(title)
        lines.append("")

        // Products.
        lines.append("Products (\(catalog.products.count))")
        if catalog.products.isEmpty {
            lines.append("  none")
        } else {
            let rows = catalog.products.map { product -> [String] in
                var price = storefront.formatted(product.price)
                if let period = product.subscription?.period { price += " / \(period)" }
                return [product.id, product.kind.displayName, name(of: product, storefront), price]
            }
            lines += table(header: ["ID", "TYPE", "NAME", "PRICE"], rows: rows)
        }

        // Groups, by level.
        lines.append("")
        lines.append("Subscription groups (\(catalog.subscriptionGroups.count))")
        if catalog.subscriptionGroups.isEmpty {
            lines.append("  none")
        }
        for group in catalog.subscriptionGroups {
            lines.append("\(group.displayName(for: storefront.locale)) (\(group.id))")
            let rows = group.productIDs.compactMap { id -> [String]? in
                guard let product = catalog.product(id), let subscription = product.subscription else { return nil }
                return [
                    String(subscription.groupLevel), product.id, name(of: product, storefront),
                    subscription.period.iso8601, storefront.formatted(product.price),
                ]
            }
            lines += table(header: ["LEVEL", "ID", "NAME", "PERIOD", "PRICE"], rows: rows).map { "  " + $0 }
        }

        // Offers.
        let offers = catalog.products.flatMap { product in
            (product.subscription?.allOffers ?? []).map { (product.id, $0) }
        }
        lines.append("")
        lines.append("Offers (\(offers.count))")
        if offers.isEmpty {
            lines.append("  none")
        } else {
            let rows = offers.map { productID, offer -> [String] in
                let label = offer.id ?? offer.referenceName ?? "-"
                let price = offer.price.map { storefront.formatted($0) } ?? "free"
                return [productID, kindLabel(offer.kind), label, modeLabel(offer.paymentMode), "\(offer.period) x \(offer.periodCount)", price]
            }
            lines += table(header: ["PRODUCT", "KIND", "ID / REFERENCE", "MODE", "PERIOD", "PRICE"], rows: rows)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func name(of product: CatalogProduct, _ storefront: Storefront) -> String {
        let name = product.localization(for: storefront.locale)?.displayName ?? ""
        return name.isEmpty ? product.referenceName : name
    }

    private static func kindLabel(_ kind: OfferKind) -> String {
        switch kind {
        case .introductory: return "introductory"
        case .promotional: return "promotional"
        case .code: return "offer code"
        case .winBack: return "win-back"
        }
    }

    private static func modeLabel(_ mode: PaymentMode) -> String {
        switch mode {
        case .freeTrial: return "free trial"
        case .payAsYouGo: return "pay as you go"
        case .payUpFront: return "pay up front"
        }
    }

    /// Left-aligned columns separated by two spaces; no trailing spaces.
    private static func table(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: header.count)
        for row in all {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return all.map { row in
            var line = ""
            for (index, cell) in row.enumerated() where index < widths.count {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            return line
        }
    }
}
