import Foundation
import StoreEngine
import StoreKit

/// The session's switches, after Xcode's Editor menu. Each assignment overrides the
/// configuration file for this session only, and is in force when the setter returns.
extension SKTestSession {
    /// Apple's `askToBuyEnabled`: purchases wait for `approveAskToBuyTransaction(identifier:)` or
    /// `declineAskToBuyTransaction(identifier:)` instead of completing.
    public var askToBuyEnabled: Bool {
        get { state.read(\.askToBuyEnabled) }
        set { apply(\.askToBuyEnabled, newValue) { SessionSwitches(askToBuy: $0) } }
    }

    /// No dialogs are ever shown here; kept for source compatibility.
    public var disableDialogs: Bool {
        get { state.read(\.disableDialogs) }
        set { state.write(\.disableDialogs, newValue) }
    }

    /// Purchases stop at a purchase issue until `resolveIssueForTransaction(identifier:)`.
    public var interruptedPurchasesEnabled: Bool {
        get { state.read(\.interruptedPurchasesEnabled) }
        set { apply(\.interruptedPurchasesEnabled, newValue) { SessionSwitches(interruptedPurchases: $0) } }
    }

    /// Renewals fail with a billing issue and enter billing retry.
    public var shouldEnterBillingRetryOnRenewal: Bool {
        get { state.read(\.shouldEnterBillingRetryOnRenewal) }
        set { apply(\.shouldEnterBillingRetryOnRenewal, newValue) { SessionSwitches(failRenewals: $0) } }
    }

    /// A failed renewal keeps access through the grace period (needs billing retry on).
    public var billingGracePeriodIsEnabled: Bool {
        get { state.read(\.billingGracePeriodIsEnabled) }
        set { apply(\.billingGracePeriodIsEnabled, newValue) { SessionSwitches(billingGracePeriod: $0) } }
    }

    /// Apple's `failTransactionsEnabled`: every purchase fails with `failureError` while it is on.
    @available(*, deprecated, message: "use setSimulatedError(_:forAPI:)")
    public var failTransactionsEnabled: Bool {
        get { state.read(\.failTransactionsEnabled) }
        set { apply(\.failTransactionsEnabled, newValue) { SessionSwitches(failTransactions: $0) } }
    }

    /// What purchases fail with while `failTransactionsEnabled` is on: StoreKit 2's purchase throws
    /// the matching `Product.PurchaseError` (`StoreKitError.unknown` for `.unknown`), StoreKit 1's
    /// transaction fails with this code. Apple accepts `.unknown`, `.invalidOfferIdentifier`,
    /// `.invalidSignature`, `.missingOfferParams` and `.invalidOfferPrice`; another code is refused
    /// (logged) and the error stays as it was.
    @available(*, deprecated, message: "use setSimulatedError(_:forAPI:)")
    public var failureError: SKError.Code {
        get { state.read(\.failureError) }
        set {
            guard let name = SKTestSession.failureErrorName(newValue) else {
                FileHandle.standardError.write(Data("SKTestSession.failureError: \(newValue) is not one StoreKitTest accepts (.unknown, .invalidOfferIdentifier, .invalidSignature, .missingOfferParams, .invalidOfferPrice)\n".utf8))
                return
            }
            apply(\.failureError, newValue) { _ in SessionSwitches(failureError: name) }
        }
    }

    /// The store's name for a `failureError` code: its StoreKit 2 `Product.PurchaseError`.
    static func failureErrorName(_ code: SKError.Code) -> String? {
        switch code {
        case .unknown: "unknown"
        case .invalidOfferIdentifier: "invalidOfferIdentifier"
        case .invalidSignature: "invalidOfferSignature"
        case .missingOfferParams: "missingOfferParameters"
        case .invalidOfferPrice: "invalidOfferPrice"
        default: nil
        }
    }

    /// The account's storefront, ISO 3166-1 alpha-3 ("USA"); `Storefront.current` and product
    /// prices follow it. An unknown code is refused and the storefront stays as it was.
    public var storefront: String {
        get { state.read(\.storefront) }
        set {
            let customer = customer, world = world
            do {
                _ = try blocking { try await $0.world(world).saveCustomer(customer, storefront: newValue, locale: nil) }
                state.write(\.storefront, newValue)
            } catch {
                FileHandle.standardError.write(Data("SKTestSession.storefront: \(error)\n".utf8))
            }
        }
    }

    /// The account's locale: the language products are described in.
    public var locale: Locale {
        get { state.read(\.locale) }
        set {
            let customer = customer, world = world, identifier = newValue.identifier
            do {
                _ = try blocking { try await $0.world(world).saveCustomer(customer, storefront: nil, locale: identifier) }
                state.write(\.locale, newValue)
            } catch {
                FileHandle.standardError.write(Data("SKTestSession.locale: \(error)\n".utf8))
            }
        }
    }

    /// How fast the session's clock runs (Xcode's "Subscription Renewal Rate").
    public var timeRate: TimeRate {
        get { state.read(\.timeRate) }
        set {
            let world = world, rate = newValue.engineRate
            do {
                _ = try blocking { try await $0.setTimeRate(world, rate: rate) }
                state.write(\.timeRate, newValue)
            } catch {
                FileHandle.standardError.write(Data("SKTestSession.timeRate: \(error)\n".utf8))
            }
        }
    }

    private func apply<Value: Sendable>(_ key: WritableKeyPath<SessionState.Values, Value> & Sendable, _ value: Value, _ switches: (Value) -> SessionSwitches) {
        let world = world, change = switches(value)
        do {
            _ = try blocking { try await $0.world(world).setSwitches(change) }
            state.write(key, value)
        } catch {
            FileHandle.standardError.write(Data("SKTestSession: \(error)\n".utf8))
        }
    }
}
