import Foundation

/// Maps a parsed `.storekit` JSON document onto the catalog model. It walks every object in file
/// order and records each fault with its JSON path instead of stopping, so a broken file is
/// reported completely in one pass. Unknown keys are ignored and no key is gated on `version`,
/// because Xcode adds and drops keys between releases. What Xcode tolerates (an empty price, the
/// number form of `_compatibilityTimeRate`, a repeated group ID) is read the way Xcode reads it and
/// recorded as a warning; docs/catalog-format.md has the rules.
struct CatalogParser {
    /// One fault or warning, in file order (strict reading turns the warnings into faults in place).
    private struct Finding {
        var path: String
        var message: String
        var isWarning: Bool
    }

    private var findings: [Finding] = []
    private var hasFaults = false
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

    private mutating func catalog(_ root: JSONValue) -> Catalog? {
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

    private mutating func version(_ value: JSONValue, _ path: String) -> CatalogVersion? {
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

    private mutating func productList(_ value: JSONValue, _ path: String) -> [CatalogProduct] {
        var result: [CatalogProduct] = []
        for (index, element) in array(value, path).enumerated() {
            if let product = product(element, "\(path)[\(index)]", groupID: nil) { result.append(product) }
        }
        return result
    }

    /// Reads a product object. `groupID` is non-nil for entries of a group's `subscriptions[]`.
    private mutating func product(_ value: JSONValue, _ path: String, groupID: String?) -> CatalogProduct? {
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

    private mutating func registerProductID(_ id: String, _ path: String) {
        if let first = productIDPaths[id] {
            fault(path, "duplicate product ID \(quoted(id)), first used at \(first)")
        } else {
            productIDPaths[id] = path
        }
    }

    private mutating func localizations(_ value: JSONValue, _ path: String) -> [CatalogLocalization] {
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

    private mutating func group(_ value: JSONValue, _ path: String) -> (group: SubscriptionGroup, products: [CatalogProduct])? {
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
    private mutating func distinctGroupID(for id: String) -> String {
        var counter = 2
        while takenGroupIDs.contains("\(id)-\(counter)") { counter += 1 }
        let distinct = "\(id)-\(counter)"
        takenGroupIDs.insert(distinct)
        return distinct
    }

    // MARK: - Offers

    private mutating func offerList(_ value: JSONValue, _ path: String, kind: OfferKind, valid: inout Bool) -> [CatalogOffer] {
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

    private mutating func offer(_ value: JSONValue, _ path: String, kind: OfferKind) -> CatalogOffer? {
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

    private mutating func billingPlan(_ value: JSONValue, _ path: String) -> BillingPlan? {
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

    // MARK: - Settings, policies, key pair

    private mutating func settings(_ value: JSONValue, _ path: String) -> CatalogSettings? {
        guard let members = object(value, path, allowNull: true) else { return nil }
        var settings = CatalogSettings()
        var oldTimeRate: (rate: Int, path: String)?
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "_storefront": if let text = string(child, childPath) { settings.storefront = text }
            case "_locale": if let text = string(child, childPath) { settings.locale = text }
            case "_timeRate": if let rate = integer(child, childPath) { settings.timeRate = rate }
            case "_compatibilityTimeRate":
                if case .number = child {  // the old form: one rate, as `_timeRate` holds it
                    if let rate = integer(child, childPath) { oldTimeRate = (rate, childPath) }
                    break
                }
                guard let rates = object(child, childPath, allowNull: true) else { break }
                for (rateKey, rateValue) in rates {
                    if let rate = integer(rateValue, join(childPath, rateKey)) {
                        settings.compatibilityTimeRate[rateKey] = rate
                    }
                }
            case "_askToBuyEnabled": settings.askToBuyEnabled = optionalBool(child, childPath) ?? false
            case "_billingGracePeriodEnabled": settings.billingGracePeriodEnabled = optionalBool(child, childPath) ?? false
            case "_renewalBillingIssuesEnabled": settings.renewalBillingIssuesEnabled = optionalBool(child, childPath) ?? false
            case "_billingIssuesEnabled": settings.interruptedPurchasesEnabled = optionalBool(child, childPath) ?? false
            case "_disableDialogs": settings.disableDialogs = optionalBool(child, childPath) ?? false
            case "_failTransactionsEnabled": settings.failTransactionsEnabled = optionalBool(child, childPath) ?? false
            case "_storeKitErrors":
                for (index, element) in array(child, childPath).enumerated() {
                    if let setting = storeKitError(element, "\(childPath)[\(index)]") {
                        settings.storeKitErrors.append(setting)
                    }
                }
            case "_applicationInternalID": settings.applicationInternalID = optionalString(child, childPath)
            case "_developerTeamID": settings.developerTeamID = optionalString(child, childPath)
            case "_lastSynchronizedDate":
                if case .null = child { break }
                settings.lastSynchronizedDate = double(child, childPath)
            default: break
            }
        }
        if let oldTimeRate {
            if value["_timeRate"] == nil {
                settings.timeRate = oldTimeRate.rate
                warn(oldTimeRate.path, "a number here is the old time-rate field; read as \"_timeRate\" : \(oldTimeRate.rate)")
            } else {
                warn(oldTimeRate.path, "a number here is the old time-rate field; \"_timeRate\" is also given and wins, so \(oldTimeRate.rate) is ignored")
            }
        }
        return settings
    }

    private mutating func storeKitError(_ value: JSONValue, _ path: String) -> StoreKitErrorSetting? {
        guard let members = object(value, path) else { return nil }
        var name: String?
        var enabled = false
        var current: StoreKitErrorSetting.Current?
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "name": name = string(child, childPath)
            case "enabled": enabled = optionalBool(child, childPath) ?? false
            case "current":
                guard let fields = object(child, childPath, allowNull: true) else { break }
                var index: Int?
                var type: String?
                for (fieldKey, fieldValue) in fields {
                    switch fieldKey {
                    case "index": index = integer(fieldValue, join(childPath, fieldKey))
                    case "type": type = string(fieldValue, join(childPath, fieldKey))
                    default: break
                    }
                }
                if let index, let type {
                    current = StoreKitErrorSetting.Current(index: index, type: type)
                } else {
                    for required in ["index", "type"] where child[required] == nil {
                        fault(join(childPath, required), "required key is missing")
                    }
                }
            default: break
            }
        }
        if value["name"] == nil { fault(join(path, "name"), "required key is missing") }
        guard let name else { return nil }
        return StoreKitErrorSetting(name: name, enabled: enabled, current: current)
    }

    private mutating func appPolicies(_ value: JSONValue, _ path: String) -> AppPolicies? {
        guard let members = object(value, path, allowNull: true) else { return nil }
        var policies = AppPolicies()
        for (key, child) in members {
            let childPath = join(path, key)
            switch key {
            case "eula": policies.eula = optionalString(child, childPath) ?? ""
            case "policies":
                for (index, element) in array(child, childPath).enumerated() {
                    let elementPath = "\(childPath)[\(index)]"
                    guard let fields = object(element, elementPath) else { continue }
                    var policy = AppPolicies.Policy(locale: "", text: "", url: "")
                    for (fieldKey, fieldValue) in fields {
                        let fieldPath = join(elementPath, fieldKey)
                        switch fieldKey {
                        case "locale": policy.locale = optionalString(fieldValue, fieldPath) ?? ""
                        case "policyText": policy.text = optionalString(fieldValue, fieldPath) ?? ""
                        case "policyURL": policy.url = optionalString(fieldValue, fieldPath) ?? ""
                        default: break
                        }
                    }
                    policies.policies.append(policy)
                }
            default: break
            }
        }
        return policies
    }

    private mutating func offerKeyPair(_ value: JSONValue, _ path: String) -> OfferKeyPair? {
        guard let members = object(value, path, allowNull: true) else { return nil }
        var id: String?
        var key: String?
        for (name, child) in members {
            switch name {
            case "id": id = string(child, join(path, name))
            case "privateKey": key = string(child, join(path, name))
            default: break
            }
        }
        for required in ["id", "privateKey"] where value[required] == nil {
            fault(join(path, required), "required key is missing")
        }
        guard let id, let key else { return nil }
        return OfferKeyPair(id: id, privateKey: key)
    }

    // MARK: - Typed readers (each records a fault and returns nil on a mismatch)

    private mutating func fault(_ path: String, _ message: String) {
        findings.append(Finding(path: path, message: message, isWarning: false))
        hasFaults = true
    }

    private mutating func warn(_ path: String, _ message: String) {
        findings.append(Finding(path: path, message: message, isWarning: true))
    }

    private func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    private func quoted(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        if escaped.count > 80 { escaped = String(escaped.prefix(77)) + "..." }
        return "\"\(escaped)\""
    }

    private mutating func mismatch(_ expected: String, _ value: JSONValue, _ path: String) {
        fault(path, "expected \(expected), found \(value.typeName)")
    }

    private mutating func object(_ value: JSONValue, _ path: String, allowNull: Bool = false) -> [(key: String, value: JSONValue)]? {
        if case let .object(members) = value { return members }
        if allowNull, case .null = value { return nil }
        mismatch("an object", value, path)
        return nil
    }

    /// The elements of an array; `null` counts as empty, other types are a fault.
    private mutating func array(_ value: JSONValue, _ path: String) -> [JSONValue] {
        switch value {
        case let .array(elements): return elements
        case .null: return []
        default:
            mismatch("an array", value, path)
            return []
        }
    }

    private mutating func string(_ value: JSONValue, _ path: String) -> String? {
        if case let .string(text) = value { return text }
        mismatch("a string", value, path)
        return nil
    }

    /// A string where `null` means absent.
    private mutating func optionalString(_ value: JSONValue, _ path: String) -> String? {
        if case .null = value { return nil }
        return string(value, path)
    }

    private mutating func nonEmptyString(_ value: JSONValue, _ path: String) -> String? {
        guard let text = string(value, path) else { return nil }
        if text.isEmpty {
            fault(path, "must not be empty")
            return nil
        }
        return text
    }

    private mutating func optionalBool(_ value: JSONValue, _ path: String) -> Bool? {
        switch value {
        case let .bool(flag): return flag
        case .null: return nil
        case let .number(raw) where raw == "0" || raw == "1": return raw == "1"
        default:
            mismatch("a boolean", value, path)
            return nil
        }
    }

    private mutating func integer(_ value: JSONValue, _ path: String) -> Int? {
        guard case let .number(raw) = value else {
            mismatch("an integer", value, path)
            return nil
        }
        if let exact = Int(raw) { return exact }
        if let double = Double(raw), double.rounded() == double, abs(double) < 1e15 { return Int(double) }
        fault(path, "expected an integer, found number \(raw)")
        return nil
    }

    private mutating func double(_ value: JSONValue, _ path: String) -> Double? {
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
    private mutating func period(_ value: JSONValue, _ path: String) -> SubscriptionPeriod? {
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
    private mutating func price(_ value: JSONValue, _ path: String) -> Decimal? {
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
