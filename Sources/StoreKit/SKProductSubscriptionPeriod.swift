import Foundation
import OpenStoreKit

/// A subscription's (or an offer's) period: `numberOfUnits` of `unit`, "1 month", "3 days".
open class SKProductSubscriptionPeriod: NSObject, @unchecked Sendable {
    open var numberOfUnits: Int { storedUnits }
    open var unit: SKProduct.PeriodUnit { storedUnit }

    private let storedUnits: Int
    private let storedUnit: SKProduct.PeriodUnit

    init(_ period: Product.SubscriptionPeriod) {
        storedUnits = period.value
        switch period.unit {
        case .day: storedUnit = .day
        case .week: storedUnit = .week
        case .month: storedUnit = .month
        case .year: storedUnit = .year
        }
        super.init()
    }

    public override init() {
        storedUnits = 0
        storedUnit = .day
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SKProductSubscriptionPeriod else { return false }
        return other.numberOfUnits == numberOfUnits && other.unit == unit
    }

    open override var hash: Int { numberOfUnits &* 8 &+ Int(unit.rawValue) }
}
