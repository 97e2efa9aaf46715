import Foundation

/// The catalog's `settings`, `appPolicies` and offer key pair (CatalogParser.swift walks the rest).
extension CatalogParser {
    // MARK: - Settings, policies, key pair

    mutating func settings(_ value: JSONValue, _ path: String) -> CatalogSettings? {
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

    mutating func storeKitError(_ value: JSONValue, _ path: String) -> StoreKitErrorSetting? {
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

    mutating func appPolicies(_ value: JSONValue, _ path: String) -> AppPolicies? {
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

    mutating func offerKeyPair(_ value: JSONValue, _ path: String) -> OfferKeyPair? {
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
}
