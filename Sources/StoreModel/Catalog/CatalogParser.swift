import Foundation

/// Maps a parsed `.storekit` JSON document onto the catalog model. It walks every object in file
/// order and records each fault with its JSON path instead of stopping, so a broken file is
/// reported completely in one pass. Unknown keys are ignored and no key is gated on `version`,
/// because Xcode adds and drops keys between releases. What Xcode tolerates (an empty price, the
/// number form of `_compatibilityTimeRate`, a repeated group ID) is read the way Xcode reads it and
/// recorded as a warning; docs/catalog-format.md has the rules.
struct CatalogParser {
    /// One fault or warning, in file order (strict reading turns the warnings into faults in place).
    struct Finding {
        var path: String
        var message: String
        var isWarning: Bool
    }

    var findings: [Finding] = []
    var hasFaults = false
    /// productID → path of its first `productID`, to report duplicates anywhere in the file.
    private var productIDPaths: [String: String] = [:]
    /// Group id as written → path of its first `id`.
    private var groupIDPaths: [String: String] = [:]
    /// Every group id the file spells, so an id given to a repeated group never collides with one.
    private var takenGroupIDs: Set<String> = []

    static func parse(_ data: Data, strict: Bool = false) throws(CatalogError) -> CatalogReading {
        let root: JSONValue
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw CatalogError(faults: [CatalogFault(path: "", message: error.message)])
        }
        var parser = CatalogParser()
        let catalog = parser.catalog(root)
        let warnings = parser.findings.filter(\.isWarning).map { CatalogWarning(path: $0.path, message: $0.message) }
        if let catalog, !parser.hasFaults {
            if !strict || warnings.isEmpty { return CatalogReading(catalog: catalog, warnings: warnings) }
        } else if !parser.hasFaults {  // defensive: never return nothing without a reason
            parser.fault("", "the catalog could not be read")
        }
        let faults = parser.findings.filter { strict || !$0.isWarning }.map { CatalogFault(path: $0.path, message: $0.message) }
        throw CatalogError(faults: faults, warnings: strict ? [] : warnings)
    }

    // MARK: - Top level

    mutating func catalog(_ root: JSONValue) -> Catalog? {
        guard case let .object(members) = root else {
            fault("", "expected a JSON object at the top level, found \(root.typeName)")
            return nil
        }
        // Another format's JSON (an App Store Connect response, a product list of another store)
        // shares none of Xcode's keys: refuse it rather than read it as an empty catalog.
        guard members.contains(where: { Self.topLevelKeys.contains($0.key) }) else {
            fault("", "not an Xcode StoreKit configuration: none of its top-level keys is one Xcode writes (\(Self.topLevelKeys.joined(separator: ", ")))")
            return nil
        }
        var catalog = Catalog()
        var products: [CatalogProduct] = []
        var nonRenewing: [CatalogProduct] = []
        var groups: [(group: SubscriptionGroup, products: [CatalogProduct])] = []
        if case let .array(elements)? = root["subscriptionGroups"] {
            for case let .string(id)? in elements.map({ $0["id"] }) { takenGroupIDs.insert(id) }
        }
        for (key, value) in members {
            let path = key
            switch key {
            case "identifier": catalog.identifier = optionalString(value, path)
            case "version": catalog.formatVersion = version(value, path)
            case "products": products = productList(value, path)
            case "nonRenewingSubscriptions": nonRenewing = productList(value, path)
            case "subscriptionGroups":
                for (index, element) in array(value, path).enumerated() {
                    if let group = group(element, "\(path)[\(index)]") { groups.append(group) }
                }
            case "settings": if let settings = settings(value, path) { catalog.settings = settings }
            case "appPolicies": catalog.appPolicies = appPolicies(value, path)
            case "subscriptionOffersKeyPair": catalog.offerKeyPair = offerKeyPair(value, path)
            default: break
            }
        }
        catalog.products = products + nonRenewing + groups.flatMap(\.products)
        catalog.subscriptionGroups = groups.map(\.group)
        return catalog
    }

    /// The top-level keys of Xcode's format, in the order Xcode writes them.
    static let topLevelKeys = [
        "appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups",
        "subscriptionOffersKeyPair", "version",
    ]

    mutating func version(_ value: JSONValue, _ path: String) -> CatalogVersion? {
        guard let members = object(value, path, allowNull: true) else { return nil }
        var major: Int?
        var minor: Int?
        for (key, child) in members {
            switch key {
            case "major": major = integer(child, join(path, key))
            case "minor": minor = integer(child, join(path, key))
            default: break
            }
        }
        guard let major else {
            if value["major"] == nil { fault(join(path, "major"), "required key is missing") }
            return nil
        }
        return CatalogVersion(major: major, minor: minor ?? 0)
    }

    // MARK: - Products

    mutating func productList(_ value: JSONValue, _ path: String) -> [CatalogProduct] {
        var result: [CatalogProduct] = []
        for (index, element) in array(value, path).enumerated() {
            if let product = product(element, "\(path)[\(index)]", groupID: nil) { result.append(product) }
        }
        return result
    }

    /// Reads a product object. `groupID` is non-nil for entries of a group's `subscriptions[]`.
    mutating func product(_ value: JSONValue, _ path: String, groupID: String?) -> CatalogProduct? {
        guard let members = object(value, path) else { return nil }
        let inGroup = groupID != nil
        var id: String?
        var kind: ProductKind?
        var kindIsValid = true
        var price: Decimal?
        var referenceName = ""
        var familyShareable = false
        var internalID: String?
        var localizations: [CatalogLocalization] = []
        // Subscription fields.
        var level: Int?
        var period: SubscriptionPeriod?
        var introductoryOffer: CatalogOffer?
        var introductoryOffers: [CatalogOffer] = []
        var promotionalOffers: [CatalogOffer] = []
        var codeOffers: [CatalogOffer] = []
        var winBackOffers: [CatalogOffer] = []
        var billingPlans: [BillingPlan] = []
        var subscriptionFieldsValid = true

        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "productID":
                id = nonEmptyString(child, childPath)
                if let id { registerProductID(id, childPath) }
            case "type":
                guard let text = string(child, childPath) else { kindIsValid = false; break }
                guard let parsed = ProductKind(rawValue: text) else {
                    fault(childPath, "\(quoted(text)) is not a product type (Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)")
                    kindIsValid = false
                    break
                }
                if inGroup && parsed != .autoRenewable {
                    fault(childPath, "\(quoted(text)) cannot be in a subscription group, expected \"RecurringSubscription\"")
                    kindIsValid = false
                } else if !inGroup && parsed == .autoRenewable {
                    fault(childPath, "\"RecurringSubscription\" products belong in subscriptionGroups[].subscriptions")
                    kindIsValid = false
                }
                kind = parsed
            case "displayPrice": price = self.price(child, childPath)
            case "referenceName": referenceName = optionalString(child, childPath) ?? ""
            case "familyShareable": familyShareable = optionalBool(child, childPath) ?? false
            case "internalID": internalID = optionalString(child, childPath)
            case "localizations": localizations = self.localizations(child, childPath)
            default:
                guard inGroup else { break }
                switch key {
                case "groupNumber":
                    level = integer(child, childPath)
                    if let value = level, value < 1 {
                        fault(childPath, "groupNumber must be 1 or more, found \(value)")
                        subscriptionFieldsValid = false
                    }
                    if level == nil { subscriptionFieldsValid = false }
                case "recurringSubscriptionPeriod":
                    period = self.period(child, childPath)
                    if period == nil { subscriptionFieldsValid = false }
                case "introductoryOffer":
                    if case .null = child { break }
                    introductoryOffer = offer(child, childPath, kind: .introductory)
                    if introductoryOffer == nil { subscriptionFieldsValid = false }
                case "introductoryOffers":
                    introductoryOffers = offerList(child, childPath, kind: .introductory, valid: &subscriptionFieldsValid)
                case "adHocOffers":
                    promotionalOffers = offerList(child, childPath, kind: .promotional, valid: &subscriptionFieldsValid)
                case "codeOffers":
                    codeOffers = offerList(child, childPath, kind: .code, valid: &subscriptionFieldsValid)
                case "winbackOffers":
                    winBackOffers = offerList(child, childPath, kind: .winBack, valid: &subscriptionFieldsValid)
                case "billingPlans":
                    for (index, element) in array(child, childPath).enumerated() {
                        if let plan = billingPlan(element, "\(childPath)[\(index)]") {
                            billingPlans.append(plan)
                        } else {
                            subscriptionFieldsValid = false
                        }
                    }
                case "subscriptionGroupID":
                    _ = optionalString(child, childPath)  // type-checked; the parent group's id wins
                default: break
                }
            }
        }

        for required in ["productID", "type", "displayPrice"] where value[required] == nil {
            fault(join(path, required), "required key is missing")
        }
        if inGroup && value["recurringSubscriptionPeriod"] == nil {
            fault(join(path, "recurringSubscriptionPeriod"), "required key is missing")
        }
        guard let id, let kind, kindIsValid, let price else { return nil }
        var product = CatalogProduct(
            id: id, referenceName: referenceName, kind: kind, price: price, familyShareable: familyShareable,
            internalID: internalID, localizations: localizations
        )
        if let groupID {
            guard subscriptionFieldsValid, let period else { return nil }
            product.subscription = CatalogSubscription(
                groupID: groupID, groupLevel: level ?? 1, period: period, introductoryOffer: introductoryOffer,
                introductoryOffers: introductoryOffers, promotionalOffers: promotionalOffers,
                codeOffers: codeOffers, winBackOffers: winBackOffers, billingPlans: billingPlans
            )
        }
        return product
    }

    mutating func registerProductID(_ id: String, _ path: String) {
        if let first = productIDPaths[id] {
            fault(path, "duplicate product ID \(quoted(id)), first used at \(first)")
        } else {
            productIDPaths[id] = path
        }
    }

    mutating func localizations(_ value: JSONValue, _ path: String) -> [CatalogLocalization] {
        var result: [CatalogLocalization] = []
        for (index, element) in array(value, path).enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let members = object(element, elementPath) else { continue }
            var locale: String?
            var displayName = ""
            var description = ""
            for (key, child) in members {
                let childPath = join(elementPath, key)
                switch key {
                case "locale": locale = string(child, childPath)
                case "displayName": displayName = optionalString(child, childPath) ?? ""
                case "description": description = optionalString(child, childPath) ?? ""
                default: break
                }
            }
            if element["locale"] == nil { fault(join(elementPath, "locale"), "required key is missing") }
            if let locale {
                result.append(CatalogLocalization(locale: locale, displayName: displayName, description: description))
            }
        }
        return result
    }

    // MARK: - Groups

    mutating func group(_ value: JSONValue, _ path: String) -> (group: SubscriptionGroup, products: [CatalogProduct])? {
        guard let members = object(value, path) else { return nil }
        // The id is needed by the subscriptions, wherever it appears in the object.
        var id: String?
        if let idValue = value["id"] {
            id = nonEmptyString(idValue, join(path, "id"))
        } else {
            fault(join(path, "id"), "required key is missing")
        }
        if let written = id {
            if let first = groupIDPaths[written] {
                // Xcode lists such groups apart; so does the store, under an id of their own.
                let distinct = distinctGroupID(for: written)
                warn(join(path, "id"), "subscription group ID \(quoted(written)) is repeated (first at \(first)); this group is kept apart as \(quoted(distinct))")
                id = distinct
            } else {
                groupIDPaths[written] = join(path, "id")
            }
        }
        var name = ""
        var localizations: [CatalogLocalization] = []
        var products: [CatalogProduct] = []
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "name": name = optionalString(child, childPath) ?? ""
            case "localizations": localizations = self.localizations(child, childPath)
            case "subscriptions":
                for (index, element) in array(child, childPath).enumerated() {
                    if let product = product(element, "\(childPath)[\(index)]", groupID: id ?? "") {
                        products.append(product)
                    }
                }
            default: break
            }
        }
        guard let id else { return nil }
        // Order by level (1 first); the sort is stable, so ties keep file order.
        let ordered = products.enumerated().sorted { lhs, rhs in
            let l = lhs.element.subscription?.groupLevel ?? Int.max
            let r = rhs.element.subscription?.groupLevel ?? Int.max
            return l != r ? l < r : lhs.offset < rhs.offset
        }
        let group = SubscriptionGroup(id: id, referenceName: name, localizations: localizations, productIDs: ordered.map(\.element.id))
        return (group, products)
    }

    /// `id-2`, `id-3`, … : the first that no group of the file spells and none was given yet.
    mutating func distinctGroupID(for id: String) -> String {
        var counter = 2
        while takenGroupIDs.contains("\(id)-\(counter)") { counter += 1 }
        let distinct = "\(id)-\(counter)"
        takenGroupIDs.insert(distinct)
        return distinct
    }

    // MARK: - Offers

    mutating func offerList(_ value: JSONValue, _ path: String, kind: OfferKind, valid: inout Bool) -> [CatalogOffer] {
        var result: [CatalogOffer] = []
        for (index, element) in array(value, path).enumerated() {
            if let offer = offer(element, "\(path)[\(index)]", kind: kind) {
                result.append(offer)
            } else {
                valid = false
            }
        }
        if case .array = value {} else if case .null = value {} else { valid = false }
        return result
    }

    mutating func offer(_ value: JSONValue, _ path: String, kind: OfferKind) -> CatalogOffer? {
        guard let members = object(value, path) else { return nil }
        var valid = true
        var internalID: String?
        var offerID: String?
        var referenceName: String?
        var mode: PaymentMode?
        var period: SubscriptionPeriod?
        var count = 1
        var price: Decimal?
        var eligibility: [String] = []
        var isStackable: Bool?
        var billingPlanType: String?
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "internalID": internalID = optionalString(child, childPath)
            case "offerID":
                let text = optionalString(child, childPath)
                if kind == .promotional || kind == .winBack { offerID = text }
            case "referenceName": referenceName = optionalString(child, childPath)
            case "paymentMode":
                guard let text = string(child, childPath) else { valid = false; break }
                mode = PaymentMode(rawValue: text)
                if mode == nil {
                    fault(childPath, "\(quoted(text)) is not a payment mode (free, payAsYouGo, payUpFront)")
                    valid = false
                }
            case "subscriptionPeriod":
                period = self.period(child, childPath)
                if period == nil { valid = false }
            case "numberOfPeriods":
                if case .null = child { break }
                guard let number = integer(child, childPath) else { valid = false; break }
                if number < 1 {
                    fault(childPath, "numberOfPeriods must be 1 or more, found \(number)")
                    valid = false
                } else {
                    count = number
                }
            case "displayPrice":
                if case .null = child { break }
                price = self.price(child, childPath)
                if price == nil { valid = false }
            case "eligibility":
                for (index, element) in array(child, childPath).enumerated() {
                    let elementPath = "\(childPath)[\(index)]"
                    guard let text = string(element, elementPath) else { valid = false; continue }
                    if ["new", "existing", "expired"].contains(text) {
                        eligibility.append(text)
                    } else {
                        fault(elementPath, "\(quoted(text)) is not an eligibility (new, existing, expired)")
                        valid = false
                    }
                }
            case "isStackable": isStackable = optionalBool(child, childPath)
            case "billingPlanType": billingPlanType = optionalString(child, childPath)
            default: break
            }
        }
        for required in ["paymentMode", "subscriptionPeriod"] where value[required] == nil {
            fault(join(path, required), "required key is missing")
            valid = false
        }
        if let mode, mode != .freeTrial, value["displayPrice"] == nil || value["displayPrice"] == .null {
            fault(join(path, "displayPrice"), "required key is missing (a \(mode.rawValue) offer has a price)")
            valid = false
        }
        guard valid, let mode, let period else { return nil }
        return CatalogOffer(
            kind: kind, internalID: internalID, id: offerID, referenceName: referenceName, paymentMode: mode,
            period: period, periodCount: count, price: mode == .freeTrial ? nil : price,
            eligibility: kind == .code ? eligibility : [], isStackable: isStackable, billingPlanType: billingPlanType
        )
    }

    mutating func billingPlan(_ value: JSONValue, _ path: String) -> BillingPlan? {
        guard let members = object(value, path) else { return nil }
        var valid = true
        var type: String?
        var price: Decimal?
        var commitment: Decimal?
        var internalID: String?
        var enabled = true
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "billingPlanType": type = string(child, childPath)
            case "displayPrice":
                if case .null = child { break }
                price = self.price(child, childPath)
                if price == nil { valid = false }
            case "commitmentDisplayPrice":
                if case .null = child { break }
                commitment = self.price(child, childPath)
                if commitment == nil { valid = false }
            case "internalID": internalID = optionalString(child, childPath)
            case "isEnabled": enabled = optionalBool(child, childPath) ?? true
            default: break
            }
        }
        if value["billingPlanType"] == nil { fault(join(path, "billingPlanType"), "required key is missing") }
        guard valid, let type else { return nil }
        return BillingPlan(type: type, price: price, commitmentPrice: commitment, internalID: internalID, isEnabled: enabled)
    }
}
