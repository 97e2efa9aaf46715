import Foundation
import OpenStoreKit

/// A subscription's (or an offer's) period: `numberOfUnits` of `unit`, "1 month", "3 days".
open class SKProductSubscriptionPeriod: NSObject, @unchecked Sendable {
    /// Mirrors StoreKit's `SKProductSubscriptionPeriod.numberOfUnits`: how many `unit`s the period lasts.
    open var numberOfUnits: Int { storedUnits }
    /// Mirrors StoreKit's `SKProductSubscriptionPeriod.unit`: day, week, month or year.
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

    /// An empty period (0 days), as `SKProductSubscriptionPeriod()` is on Apple platforms.
    public override init() {
        storedUnits = 0
        storedUnit = .day
        super.init()
    }

    /// Equal when the unit and the number of units match.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SKProductSubscriptionPeriod else { return false }
        return other.numberOfUnits == numberOfUnits && other.unit == unit
    }

    /// Hashes the unit and the number of units, to agree with `isEqual(_:)`.
    open override var hash: Int { numberOfUnits &* 8 &+ Int(unit.rawValue) }
}
