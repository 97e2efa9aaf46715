/// A world's clock and its Transaction Manager switches, after `SKTestSession`'s properties.
/// A nil switch falls back to the app catalog's `settings` (`_askToBuyEnabled`, …), as a test
/// session's overrides fall back to its configuration file; `reset` clears them all.
public struct WorldSettings: Codable, Sendable, Equatable {
    /// The world's clock: its anchor and rate.
    public var clock: WorldClock
    /// `askToBuyEnabled`
    public var askToBuy: Bool?
    /// `shouldEnterBillingRetryOnRenewal`: renewals fail with a billing issue.
    public var failRenewals: Bool?
    /// `billingGracePeriodIsEnabled`
    public var billingGracePeriod: Bool?
    /// `interruptedPurchasesEnabled`
    public var interruptedPurchases: Bool?
    /// `failTransactionsEnabled` (deprecated by Apple in favour of simulated errors)
    public var failTransactions: Bool?
    /// `failureError`: the error failed transactions fail with, as a Purchase error name
    /// (`unknown`, `invalidOfferIdentifier`, `invalidOfferSignature`, `missingOfferParameters`,
    /// `invalidOfferPrice`); nil is `unknown`.
    public var failureError: String?
    /// `setSimulatedError(_:forAPI:)`: API name (as in `_storeKitErrors`) → StoreKit error code.
    public var simulatedErrors: [String: String]
    /// The sandbox's "renews up to 12 times" cap, when wanted; nil = no cap.
    public var renewalLimit: Int?

    /// Settings with `clock`, no overrides and no simulated errors.
    public init(clock: WorldClock) {
        self.clock = clock
        self.simulatedErrors = [:]
    }

    /// Back to the catalog's defaults; the clock keeps running (it never goes back).
    public mutating func reset() {
        self = WorldSettings(clock: clock)
    }
}
