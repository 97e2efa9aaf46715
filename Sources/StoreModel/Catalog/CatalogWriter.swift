import Foundation

/// Writes a catalog back as a `.storekit` document in Xcode's own layout (keys sorted as Xcode
/// sorts them, two-space indents, `"key" : value`), so `openstore catalog show --json` gives a file
/// that Xcode and this reader both open, with every oddity the reader tolerated written out tidily:
/// an empty price as "0", the old time-rate number as `_timeRate`, a repeated group under its own id.
/// Reading the output back gives the same `Catalog`.
enum CatalogWriter {
    static func document(_ catalog: Catalog) -> String {
        var text = ""
        write(tree(catalog), indent: 0, into: &text)
        text += "\n"
        return text
    }

    // MARK: - Catalog → JSON tree

    static func tree(_ catalog: Catalog) -> JSONValue {
        let oneTime = catalog.products.filter { $0.subscription == nil }
        // Xcode's shape (`products` then `nonRenewingSubscriptions`) when it keeps the catalog's
        // order; otherwise everything in `products`, which the reader accepts and keeps in order.
        let firstRenewing = oneTime.firstIndex { $0.kind == .nonRenewing } ?? oneTime.endIndex
        let splits = oneTime[firstRenewing...].allSatisfy { $0.kind == .nonRenewing }
        let products = splits ? Array(oneTime[..<firstRenewing]) : oneTime
        let nonRenewing = splits ? Array(oneTime[firstRenewing...]) : []

        var members: [(String, JSONValue)] = [
            ("nonRenewingSubscriptions", .array(nonRenewing.map(product))),
            ("products", .array(products.map(product))),
            ("settings", settings(catalog.settings)),
            ("subscriptionGroups", .array(catalog.subscriptionGroups.map { group($0, in: catalog) })),
        ]
        if let policies = catalog.appPolicies { members.append(("appPolicies", appPolicies(policies))) }
        if let identifier = catalog.identifier { members.append(("identifier", .string(identifier))) }
        if let pair = catalog.offerKeyPair {
            members.append(("subscriptionOffersKeyPair", object([("id", .string(pair.id)), ("privateKey", .string(pair.privateKey))])))
        }
        if let version = catalog.formatVersion {
            members.append(("version", object([("major", integer(version.major)), ("minor", integer(version.minor))])))
        }
        return object(members)
    }

    private static func product(_ product: CatalogProduct) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("displayPrice", price(product.price)),
            ("familyShareable", .bool(product.familyShareable)),
            ("localizations", .array(product.localizations.map(localization))),
            ("productID", .string(product.id)),
            ("referenceName", .string(product.referenceName)),
            ("type", .string(product.kind.rawValue)),
        ]
        if let internalID = product.internalID { members.append(("internalID", .string(internalID))) }
        if let subscription = product.subscription {
            members += [
                ("adHocOffers", .array(subscription.promotionalOffers.map(offer))),
                ("codeOffers", .array(subscription.codeOffers.map(offer))),
                ("groupNumber", integer(subscription.groupLevel)),
                ("introductoryOffer", subscription.introductoryOffer.map(offer) ?? .null),
                ("recurringSubscriptionPeriod", .string(subscription.period.iso8601)),
                ("subscriptionGroupID", .string(subscription.groupID)),
                ("winbackOffers", .array(subscription.winBackOffers.map(offer))),
            ]
            if !subscription.introductoryOffers.isEmpty {
                members.append(("introductoryOffers", .array(subscription.introductoryOffers.map(offer))))
            }
            if !subscription.billingPlans.isEmpty {
                members.append(("billingPlans", .array(subscription.billingPlans.map(billingPlan))))
            }
        }
        return object(members)
    }

    private static func group(_ group: SubscriptionGroup, in catalog: Catalog) -> JSONValue {
        // File order, as the catalog keeps it; the reader orders by level again.
        let subscriptions = catalog.products.filter { $0.subscription?.groupID == group.id }
        return object([
            ("id", .string(group.id)),
            ("localizations", .array(group.localizations.map(localization))),
            ("name", .string(group.referenceName)),
            ("subscriptions", .array(subscriptions.map(product))),
        ])
    }

    private static func offer(_ offer: CatalogOffer) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("numberOfPeriods", integer(offer.periodCount)),
            ("paymentMode", .string(offer.paymentMode.rawValue)),
            ("subscriptionPeriod", .string(offer.period.iso8601)),
        ]
        if let amount = offer.price { members.append(("displayPrice", price(amount))) }
        if offer.kind == .code { members.append(("eligibility", .array(offer.eligibility.map(JSONValue.string)))) }
        if let internalID = offer.internalID { members.append(("internalID", .string(internalID))) }
        if let isStackable = offer.isStackable { members.append(("isStackable", .bool(isStackable))) }
        if let id = offer.id { members.append(("offerID", .string(id))) }
        if let referenceName = offer.referenceName { members.append(("referenceName", .string(referenceName))) }
        if let type = offer.billingPlanType { members.append(("billingPlanType", .string(type))) }
        return object(members)
    }

    private static func billingPlan(_ plan: BillingPlan) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("billingPlanType", .string(plan.type)),
            ("isEnabled", .bool(plan.isEnabled)),
        ]
        if let amount = plan.price { members.append(("displayPrice", price(amount))) }
        if let commitment = plan.commitmentPrice { members.append(("commitmentDisplayPrice", price(commitment))) }
        if let internalID = plan.internalID { members.append(("internalID", .string(internalID))) }
        return object(members)
    }

    private static func localization(_ localization: CatalogLocalization) -> JSONValue {
        object([
            ("description", .string(localization.description)),
            ("displayName", .string(localization.displayName)),
            ("locale", .string(localization.locale)),
        ])
    }

    private static func settings(_ settings: CatalogSettings) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("_askToBuyEnabled", .bool(settings.askToBuyEnabled)),
            ("_billingGracePeriodEnabled", .bool(settings.billingGracePeriodEnabled)),
            ("_billingIssuesEnabled", .bool(settings.interruptedPurchasesEnabled)),
            ("_disableDialogs", .bool(settings.disableDialogs)),
            ("_failTransactionsEnabled", .bool(settings.failTransactionsEnabled)),
            ("_locale", .string(settings.locale)),
            ("_renewalBillingIssuesEnabled", .bool(settings.renewalBillingIssuesEnabled)),
            ("_storefront", .string(settings.storefront)),
            ("_storeKitErrors", .array(settings.storeKitErrors.map(storeKitError))),
            ("_timeRate", integer(settings.timeRate)),
        ]
        if !settings.compatibilityTimeRate.isEmpty {
            members.append(("_compatibilityTimeRate", object(settings.compatibilityTimeRate.map { ($0.key, integer($0.value)) })))
        }
        if let id = settings.applicationInternalID { members.append(("_applicationInternalID", .string(id))) }
        if let team = settings.developerTeamID { members.append(("_developerTeamID", .string(team))) }
        if let date = settings.lastSynchronizedDate { members.append(("_lastSynchronizedDate", .number("\(date)"))) }
        return object(members)
    }

    private static func storeKitError(_ setting: StoreKitErrorSetting) -> JSONValue {
        let current: JSONValue = setting.current.map {
            object([("index", integer($0.index)), ("type", .string($0.type))])
        } ?? .null
        return object([("current", current), ("enabled", .bool(setting.enabled)), ("name", .string(setting.name))])
    }

    private static func appPolicies(_ policies: AppPolicies) -> JSONValue {
        object([
            ("eula", .string(policies.eula)),
            ("policies", .array(policies.policies.map {
                object([("locale", .string($0.locale)), ("policyText", .string($0.text)), ("policyURL", .string($0.url))])
            })),
        ])
    }

    /// An object with its keys in Xcode's order: case-insensitive, then as written.
    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.sorted { lhs, rhs in
            let l = lhs.0.lowercased(), r = rhs.0.lowercased()
            return l != r ? l < r : lhs.0 < rhs.0
        }.map { (key: $0.0, value: $0.1) })
    }

    private static func integer(_ value: Int) -> JSONValue { .number("\(value)") }

    /// Plain decimal text, as Xcode writes prices ("4.99", "0").
    private static func price(_ value: Decimal) -> JSONValue {
        .string(value.description)
    }

    // MARK: - JSON text

    static func write(_ value: JSONValue, indent: Int, into text: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .null: text += "null"
        case let .bool(flag): text += flag ? "true" : "false"
        case let .number(raw): text += raw
        case let .string(string): writeString(string, into: &text)
        case let .array(elements):
            guard !elements.isEmpty else { text += "[\n\n\(closing)]"; return }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                write(element, indent: indent + 1, into: &text)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += "\(closing)]"
        case let .object(members):
            guard !members.isEmpty else { text += "{\n\n\(closing)}"; return }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner
                writeString(member.key, into: &text)
                text += " : "
                write(member.value, indent: indent + 1, into: &text)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += "\(closing)}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension Catalog {
    /// The catalog as a `.storekit` document in Xcode's layout; reading it back gives this catalog.
    /// `openstore catalog show --json` prints it.
    public func storekitDocument() -> String {
        CatalogWriter.document(self)
    }
}
