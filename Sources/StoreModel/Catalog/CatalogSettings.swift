/// The file's `settings`: test-environment defaults, as SKTestSession exposes them. Absent keys
/// take Xcode's defaults (storefront USA, locale en_US, time rate 0, every switch off).
public struct CatalogSettings: Sendable, Equatable {
    /// `_storefront`: ISO 3166-1 alpha-3 country.
    public var storefront: String
    /// `_locale`.
    public var locale: String
    /// `_timeRate`: Xcode's time-rate menu index (0 = real time).
    public var timeRate: Int
    /// `_compatibilityTimeRate`: fallback rate keyed by a version number.
    public var compatibilityTimeRate: [String: Int]
    /// `_askToBuyEnabled`: purchases wait for approval (`.pending` / `.deferred`) unless a world overrides it.
    public var askToBuyEnabled: Bool
    /// `_billingGracePeriodEnabled`: a failed renewal keeps access through the grace period unless a world overrides it.
    public var billingGracePeriodEnabled: Bool
    /// `_renewalBillingIssuesEnabled`: renewals enter billing retry.
    public var renewalBillingIssuesEnabled: Bool
    /// `_billingIssuesEnabled`: purchases are interrupted.
    public var interruptedPurchasesEnabled: Bool
    /// `_disableDialogs`: the test session's switch for skipping purchase confirmation dialogs.
    public var disableDialogs: Bool
    /// `_failTransactionsEnabled`: purchases fail unless a world overrides it.
    public var failTransactionsEnabled: Bool
    /// `_storeKitErrors[]`: the simulated errors per StoreKit API, as Xcode 15+ writes them.
    public var storeKitErrors: [StoreKitErrorSetting]
    /// `_applicationInternalID` of a file synced from App Store Connect.
    public var applicationInternalID: String?
    /// `_developerTeamID` of a synced file.
    public var developerTeamID: String?
    /// `_lastSynchronizedDate`: seconds since 2001-01-01.
    public var lastSynchronizedDate: Double?

    /// Settings with Xcode's defaults for any key left out.
    public init(
        storefront: String = "USA", locale: String = "en_US", timeRate: Int = 0,
        compatibilityTimeRate: [String: Int] = [:], askToBuyEnabled: Bool = false,
        billingGracePeriodEnabled: Bool = false, renewalBillingIssuesEnabled: Bool = false,
        interruptedPurchasesEnabled: Bool = false, disableDialogs: Bool = false,
        failTransactionsEnabled: Bool = false, storeKitErrors: [StoreKitErrorSetting] = [],
        applicationInternalID: String? = nil, developerTeamID: String? = nil, lastSynchronizedDate: Double? = nil
    ) {
        self.storefront = storefront
        self.locale = locale
        self.timeRate = timeRate
        self.compatibilityTimeRate = compatibilityTimeRate
        self.askToBuyEnabled = askToBuyEnabled
        self.billingGracePeriodEnabled = billingGracePeriodEnabled
        self.renewalBillingIssuesEnabled = renewalBillingIssuesEnabled
        self.interruptedPurchasesEnabled = interruptedPurchasesEnabled
        self.disableDialogs = disableDialogs
        self.failTransactionsEnabled = failTransactionsEnabled
        self.storeKitErrors = storeKitErrors
        self.applicationInternalID = applicationInternalID
        self.developerTeamID = developerTeamID
        self.lastSynchronizedDate = lastSynchronizedDate
    }
}
