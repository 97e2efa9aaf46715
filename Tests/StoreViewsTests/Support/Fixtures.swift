import Foundation
import StoreKitTypes
import StoreModel
@testable import StoreViews

/// The demo catalogs as a storefront sells them, and snapshots of customers in known states.
enum Fixtures {
    static let passGroup = "BB0PASS1"
    static let premium = "com.example.backyardbirds.pass.premium"      // level 1, 1 month free
    static let family = "com.example.backyardbirds.pass.family"        // level 2, 1 week free
    static let individual = "com.example.backyardbirds.pass.individual" // level 3, 1 week free
    static let pellets = "com.example.backyardbirds.pellets"
    static let feastBundle = "com.example.backyardbirds.feastbundle"

    static let socialGroup = "F7E50C1A"
    static let monthly = "com.example.foodtruck.socialfeedplus.monthly" // $4.99, 1 week free
    static let yearly = "com.example.foodtruck.socialfeedplus.yearly"   // $49.99, $9.99 for 3 months
    static let annualHistory = "com.example.foodtruck.annualhistory"

    static func catalog(_ json: String) -> Catalog {
        do { return try Catalog.decode(Data(json.utf8)) } catch { fatalError("demo catalog does not parse: \(error.faults)") }
    }

    static func products(_ json: String, storefront: String = "USA", locale: String? = nil) -> [Product] {
        Product.products(of: catalog(json), storefront: Storefront.lookup(storefront)!, locale: locale)
    }

    static var birds: [Product] { products(DemoCatalogs.backyardBirds) }
    static var foodTruck: [Product] { products(DemoCatalogs.foodTruck) }

    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// A transaction as the store signs it (Apple's wire payload), decoded as StoreKit's value:
    /// the same path the client library and the store's pages take. Not signed: views render values.
    static func transaction(_ productID: String, expires: Date? = nil, edit: (inout TransactionPayload) -> Void = { _ in }) -> Transaction {
        let purchased = ms(now.addingTimeInterval(-86_400))
        var payload = TransactionPayload(
            originalTransactionId: "2000000000000001", transactionId: "2000000000000002", bundleId: "com.example.views",
            productId: productID, purchaseDate: purchased, originalPurchaseDate: purchased, expiresDate: expires.map(ms),
            type: expires == nil ? .nonConsumable : .autoRenewable, signedDate: ms(now), environment: .xcode,
            storefront: "USA", storefrontId: "143441", currency: "USD", price: 4990, appTransactionId: "705000000000000001")
        edit(&payload)
        return Transaction(payload: payload, jws: "")
    }

    /// Renewal info as the store signs it, decoded as StoreKit's value.
    static func renewalInfo(_ productID: String, willAutoRenew: Bool, preference: String, renewalDate: Date?,
                            edit: (inout RenewalInfoPayload) -> Void = { _ in }) -> Product.SubscriptionInfo.RenewalInfo {
        var payload = RenewalInfoPayload(
            originalTransactionId: "2000000000000001", autoRenewProductId: preference, productId: productID,
            autoRenewStatus: willAutoRenew ? .on : .off, signedDate: ms(now), environment: .xcode,
            renewalDate: renewalDate.map(ms))
        edit(&payload)
        return Product.SubscriptionInfo.RenewalInfo(payload: payload, jws: "")
    }

    static func appTransaction(originalAppVersion: String) -> AppTransaction {
        AppTransaction(payload: AppTransactionPayload(
            receiptType: .xcode, appAppleId: nil, bundleId: "com.example.views", applicationVersion: "9.0",
            receiptCreationDate: ms(now), originalPurchaseDate: ms(now), originalApplicationVersion: originalAppVersion,
            appTransactionId: "705000000000000001"), jws: "")
    }

    /// A subscription status in a group: subscribed to `productID` unless `state` says otherwise.
    static func status(_ productID: String, state: Product.SubscriptionInfo.RenewalState = .subscribed,
                       renewsTo preference: String? = nil) -> Product.SubscriptionInfo.Status {
        let expires = now.addingTimeInterval(state.isActive ? 20 * 86_400 : -86_400)
        return .init(state: state, transaction: .verified(transaction(productID, expires: expires)),
                     renewalInfo: .verified(renewalInfo(productID, willAutoRenew: state.isActive, preference: preference ?? productID,
                                                        renewalDate: expires)))
    }

    /// The Backyard Birds store for a customer subscribed to one pass plan (no intro offer left).
    static func birdsSubscriber(_ productID: String, state: Product.SubscriptionInfo.RenewalState = .subscribed,
                                renewsTo preference: String? = nil) -> StoreSnapshot {
        StoreSnapshot(products: birds, currentEntitlements: state.isActive ? [productID: .verified(transaction(productID))] : [:],
                      subscriptionStatuses: [passGroup: [status(productID, state: state, renewsTo: preference)]],
                      introOfferEligibleGroups: [], customer: "alice", now: now)
    }
}

/// Small readers of rendered HTML, so tests state what a user sees rather than exact markup.
extension String {
    func count(of needle: String) -> Int {
        guard !needle.isEmpty else { return 0 }
        var count = 0
        var rest = self[...]
        while let range = rest.range(of: needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    /// Offset of the first occurrence, for "A comes before B" assertions.
    func offset(of needle: String) -> Int? {
        range(of: needle).map { distance(from: startIndex, to: $0.lowerBound) }
    }

    /// The inner text of the first element whose opening tag contains `marker`, tags removed.
    func text(of marker: String) -> String? {
        guard let start = range(of: marker), let tagEnd = self[start.upperBound...].firstIndex(of: ">") else { return nil }
        // Walk to the element's matching close by counting nested opens of the same tag.
        guard let tagStart = self[..<start.lowerBound].lastIndex(of: "<") else { return nil }
        let tag = self[index(after: tagStart)...].prefix { $0.isLetter || $0.isNumber }
        var depth = 1
        var cursor = index(after: tagEnd)
        var inner = ""
        while cursor < endIndex, depth > 0 {
            if self[cursor...].hasPrefix("</\(tag)>") {
                depth -= 1
                if depth == 0 { break }
            } else if self[cursor...].hasPrefix("<\(tag)") {
                depth += 1
            }
            inner.append(self[cursor])
            cursor = index(after: cursor)
        }
        return inner.replacing(/<[^>]*>/, with: "")
    }

    /// Values of `attribute` in order of appearance.
    func values(of attribute: String) -> [String] {
        var result: [String] = []
        var rest = self[...]
        let marker = " \(attribute)=\""
        while let range = rest.range(of: marker) {
            let after = rest[range.upperBound...]
            guard let close = after.firstIndex(of: "\"") else { break }
            result.append(String(after[..<close]))
            rest = after[close...]
        }
        return result
    }

    /// The `value` of the submit button whose label contains `label`, i.e. the action it posts.
    func actionValue(ofButtonLabelled label: String) -> String? {
        var rest = self[...]
        while let open = rest.range(of: "<button") {
            guard let close = rest[open.upperBound...].range(of: "</button>") else { return nil }
            let button = String(rest[open.lowerBound..<close.upperBound])
            if button.contains(label) { return button.values(of: "value").first }
            rest = rest[close.upperBound...]
        }
        return nil
    }
}

/// Renders a view alone, as the server would inside a page.
func html(_ view: some View, _ store: StoreSnapshot = StoreSnapshot(products: Fixtures.birds), phase: RenderPhase = .loaded) -> String {
    PageRenderer.fragment(view, store: store, phase: phase)
}

/// Records what hooks and actions did, for assertions after they ran.
final class Log: @unchecked Sendable {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
