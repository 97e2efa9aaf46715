import Foundation
import Logging
import StoreEngine
import StoreKitTypes
import StoreModel
import StoreViews

/// Carries out what a pressed button means (`PageAction`) through the engine, as StoreKit would
/// on a device: purchases are ordinary purchases (same transactions, same notifications, the
/// engine applies an eligible intro offer), restore is `AppStore.sync()`, redeem is the offer
/// code sheet. Every refusal becomes a notice on the page, never a failed request.
struct StorePageActions {
    let store: StoreEngine.AppStore
    let bundleId: String
    let customer: String
    let world: String
    /// The request's record of worlds served elsewhere: an action's errors become notices, so
    /// the world handle notes the miss for the forwarding middleware first.
    let misses: WorldMisses
    let logger: Logger

    /// What an action came to: the notice the page shows next, the `X-OpenStore-Result` value,
    /// and whether the page closes (it was "presented").
    struct Outcome {
        var notice: PageRenderer.Notice?
        var result: String
        var dismissed = false
    }

    func perform(_ action: PageAction, session: RenderSession) async -> Outcome {
        switch action {
        case .purchase(let intent):
            // A completion hook may close the presented page: the WWDC23 talk's pass sheet calls
            // `dismiss()` from `onInAppPurchaseCompletion` after a successful purchase.
            var outcome = await purchase(intent, products: session.store)
            outcome.dismissed = session.dismissRequested
            return outcome
        case .run(let closure):
            let before = session.requestedPurchases.count
            closure()
            var outcome = Outcome(notice: nil, result: "done")
            for intent in session.requestedPurchases.dropFirst(before) {
                let step = await purchase(intent, products: session.store)
                // A failure stays on screen even when a later purchase succeeds.
                if outcome.notice?.isError != true { outcome.notice = step.notice ?? outcome.notice }
                if outcome.result != "failed" { outcome.result = step.result }
            }
            outcome.dismissed = session.dismissRequested
            return outcome
        case .restorePurchases:
            return await restore()
        case .redeemCode(let code):
            return await redeem(code, products: session.store)
        case .dismiss:
            return Outcome(notice: nil, result: "dismissed", dismissed: true)
        }
    }

    /// `Product.purchase()` from a store view: the intent's hooks around an engine purchase. A page
    /// with its own completion hook handles the outcome itself; otherwise success shows a notice
    /// and an error an alert, as StoreKit's default does.
    func purchase(_ intent: PurchaseIntent, products: StoreSnapshot) async -> Outcome {
        guard let product = products.product(intent.productID) else {
            return Outcome(notice: .init("\(intent.productID) is not for sale in this storefront.", isError: true), result: "failed")
        }
        if let onStart = intent.onStart { await onStart(product) }
        let result: Result<Product.PurchaseResult, any Error>
        var deferredProductId: String?
        var interrupted = false
        do {
            // The win-back offer the button showed is asked for, as `.winBackOffer(_:)` would; the
            // engine checks eligibility again. An intro offer the engine applies by itself.
            let winBack = intent.offer.flatMap { $0.type == .winBack ? $0.id : nil }
            let outcome = try await store.world(world, reportingTo: misses).purchase(
                PurchaseRequest(bundleId: bundleId, productId: product.id, customer: customer),
                offer: winBack.map { .winBack(offerId: $0) })
            let verified = !(try await store.world(world, reportingTo: misses).simulatesVerificationFailure())
            if outcome.status == .purchased, let signed = outcome.transaction {
                result = .success(.success(StoreSnapshotLoader.transaction(signed, verified)))
                if signed.payload.productId != product.id { deferredProductId = signed.payload.productId }
            } else {
                result = .success(.pending)
                interrupted = outcome.status == .interrupted
            }
        } catch {
            result = .failure(error)
        }
        let status: String
        switch result {
        case .success(.success): status = "purchased"
        case .success(.pending): status = "pending"
        case .success(.userCancelled): status = "cancelled"
        case .failure: status = "failed"
        }
        if let onCompletion = intent.onCompletion {
            await onCompletion(product, result)
            return Outcome(notice: nil, result: status)
        }
        switch result {
        case .success(.success):
            // A downgrade answers with the current transaction: the new plan starts at renewal.
            let text = deferredProductId == nil ? "Purchase complete: \(Bidi.isolate(product.displayName))"
                : "\(Bidi.isolate(product.displayName)) starts at your next renewal."
            return Outcome(notice: .init(text), result: status)
        case .success(.pending):
            let text = interrupted ? "Purchase interrupted: \(Bidi.isolate(product.displayName)) needs your attention before it completes."
                : "Purchase pending: \(Bidi.isolate(product.displayName)) is waiting for approval (Ask to Buy)."
            return Outcome(notice: .init(text), result: status)
        case .success(.userCancelled):
            return Outcome(notice: nil, result: status)
        case .failure(let error):
            return Outcome(notice: .init("Purchase failed: \(message(error))", isError: true), result: status)
        }
    }

    /// `AppStore.sync()`: every transaction of the customer, or the simulated "App Store Sync" error.
    func restore() async -> Outcome {
        do {
            try await store.world(world, reportingTo: misses).checkSimulatedError("App Store Sync")
            let all = try await store.world(world, reportingTo: misses).transactions(bundleId: bundleId, customer: customer, scope: .all)
            return Outcome(notice: .init("Purchases restored (\(all.count) transaction\(all.count == 1 ? "" : "s"))"), result: "restored")
        } catch {
            return Outcome(notice: .init("Restore failed: \(message(error))", isError: true), result: "failed")
        }
    }

    /// The offer code redeem sheet, or its simulated error.
    func redeem(_ code: String, products: StoreSnapshot) async -> Outcome {
        let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else { return Outcome(notice: .init("Enter an offer code.", isError: true), result: "failed") }
        do {
            try await store.world(world, reportingTo: misses).checkSimulatedError("Offer Code Redeem Sheet")
            let outcome = try await store.world(world, reportingTo: misses).redeemOfferCode(code, bundleId: bundleId, customer: customer)
            let name = outcome.transaction.flatMap { products.product($0.payload.productId)?.displayName }
            return Outcome(notice: .init("Offer code redeemed" + (name.map { ": \(Bidi.isolate($0))" } ?? ".")), result: "redeemed")
        } catch {
            return Outcome(notice: .init("Offer code not redeemed: \(message(error))", isError: true), result: "failed")
        }
    }

    /// What the store said, in words a shopper can read; faults of the store itself are logged.
    func message(_ error: any Error) -> String {
        switch error {
        case let error as StoreError: return error.message
        case let error as OfferError: return error.message
        default:
            logger.error("store page action failed: \(error)")
            return "the store could not complete the request."
        }
    }
}
