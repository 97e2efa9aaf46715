import StoreKit

extension SKProduct {
    /// The article's status line for this subscription.
    func subscriptionStatus() -> String {
        if let expDate = IAPManager.shared.expirationDateFor(productIdentifier) {
            let formatter = DateFormatter()
            formatter.dateStyle = .medium
            formatter.timeStyle = .medium
            let dateString = formatter.string(from: expDate)
            if IAPManager.shared.now > expDate {
                return "Subscription expired: \(localizedTitle) at: \(dateString)"
            } else {
                return "Subscription active: \(localizedTitle) until:\(dateString)"
            }
        } else {
            return "Subscription not purchased: \(localizedTitle)"
        }
    }

    /// "$0.99\nper week", as the article's purchase buttons show.
    func localizedPrice() -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = priceLocale
        let text = formatter.string(from: price)
        guard let period = subscriptionPeriod else { return text ?? "" }
        let periodString: String
        switch period.unit {
        case .day: periodString = "day"
        case .week: periodString = "week"
        case .month: periodString = "month"
        case .year: periodString = "year"
        }
        let unitString = period.numberOfUnits == 1 ? periodString : "\(period.numberOfUnits) \(periodString)s"
        return (text ?? "") + "\nper \(unitString)"
    }
}
