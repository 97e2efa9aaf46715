import Foundation
import Synchronization
import StoreKit
import StoreModel

/// What a session's properties read back: the configuration file's settings, overridden by the
/// test's assignments until `resetToDefaultState()`.
final class SessionState: Sendable {
    struct Values: Sendable {
        var askToBuyEnabled: Bool
        var disableDialogs: Bool
        var interruptedPurchasesEnabled: Bool
        var shouldEnterBillingRetryOnRenewal: Bool
        var billingGracePeriodIsEnabled: Bool
        var storefront: String
        var locale: Locale
        var timeRate: SKTestSession.TimeRate
        var failTransactionsEnabled: Bool
        var failureError: SKError.Code = .unknown

        init(catalog: Catalog) {
            let settings = catalog.settings
            askToBuyEnabled = settings.askToBuyEnabled
            disableDialogs = settings.disableDialogs
            interruptedPurchasesEnabled = settings.interruptedPurchasesEnabled
            shouldEnterBillingRetryOnRenewal = settings.renewalBillingIssuesEnabled
            billingGracePeriodIsEnabled = settings.billingGracePeriodEnabled
            storefront = settings.storefront
            locale = Locale(identifier: settings.locale)
            timeRate = SKTestSession.TimeRate(rawValue: settings.timeRate) ?? .realTime
            failTransactionsEnabled = settings.failTransactionsEnabled
        }
    }

    private let values: Mutex<Values>

    init(_ values: Values) { self.values = Mutex(values) }

    func read<T: Sendable>(_ key: KeyPath<Values, T> & Sendable) -> T { values.withLock { $0[keyPath: key] } }
    func write<T: Sendable>(_ key: WritableKeyPath<Values, T> & Sendable, _ value: T) { values.withLock { $0[keyPath: key] = value } }
    func replace(_ new: Values) { values.withLock { $0 = new } }
}
