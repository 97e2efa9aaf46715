import Foundation
import StoreKit
import StoreModel

/// What a session's properties read back: the configuration file's settings, overridden by the
/// test's assignments until `resetToDefaultState()`.
final class SessionState: @unchecked Sendable {
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

    private let lock = NSLock()
    private var values: Values

    init(_ values: Values) { self.values = values }

    func read<T>(_ key: KeyPath<Values, T>) -> T { lock.withLock { values[keyPath: key] } }
    func write<T>(_ key: WritableKeyPath<Values, T>, _ value: T) { lock.withLock { values[keyPath: key] = value } }
    func replace(_ new: Values) { lock.withLock { values = new } }
}
