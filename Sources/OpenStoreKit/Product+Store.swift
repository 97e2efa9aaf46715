import Foundation
import StoreKitTypes

extension Product {
    /// `Product.products(for:)`: the products with these IDs, as the customer's storefront
    /// sees them. Unknown IDs are left out, as StoreKit does.
    public static func products<C: Collection>(for identifiers: C) async throws -> [Product] where C.Element == String {
        let connection = try OpenStoreKit.connection()
        return try await connection.products(for: Array(identifiers))
    }

    /// `purchase(options:)`: buys the product for the configured customer.
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await OpenStoreKit.connection().purchase(self, options: options)
    }

    /// The transaction that entitles the customer to this product, if any.
    public var currentEntitlement: VerificationResult<Transaction>? {
        get async { await Transaction.currentEntitlement(for: id) }
    }

    /// The customer's latest transaction for this product, if any.
    public var latestTransaction: VerificationResult<Transaction>? {
        get async { await Transaction.latest(for: id) }
    }

    /// Every transaction that entitles the customer to this product (iOS 18.4's replacement for
    /// `currentEntitlement`).
    public var currentEntitlements: Transaction.Transactions { Transaction.currentEntitlements(for: id) }
}

extension StoreConnection {
    /// Needs no customer, as on a phone where nobody is signed in (see `listingStorefront`).
    /// Products are cached per storefront for the connection's life, as StoreKit caches them for
    /// the app's: asking again for the same IDs in the same storefront costs only the storefront
    /// check, and a storefront change lists them afresh in the new one's prices.
    func products(for ids: [String]) async throws -> [Product] {
        _ = try await startWithoutAccount()
        guard !ids.isEmpty else { return [] }
        let storefront = try await listingStorefront()
        let cached = productCache.withLock { cache in ids.compactMap { cache[ProductCacheKey(storefront: storefront, id: $0)] } }
        let missing = ids.filter { id in !cached.contains { $0.id == id } }
        guard !missing.isEmpty else { return Self.inRequestOrder(cached, ids) }
        var query = missing.map { "id=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" }
        if let storefront { query.append("storefront=\(storefront)") }
        let answer = try await send(.GET, app + "/products?" + query.joined(separator: "&"))
        let listing = try decode(ProductListingJSON.self, answer)
        let fetched: [Product]
        do {
            fetched = try listing.products.map { try Product($0, storefront: listing.storefront) }
        } catch {
            throw StoreKitError.systemError(error)
        }
        productCache.withLock { cache in
            for product in fetched { cache[ProductCacheKey(storefront: storefront, id: product.id)] = product }
        }
        return Self.inRequestOrder(cached + fetched, ids)
    }

    /// The products in the order their IDs were asked for (unknown IDs left out), once each.
    static func inRequestOrder(_ products: [Product], _ ids: [String]) -> [Product] {
        var byID: [String: Product] = [:]
        for product in products { byID[product.id] = product }
        var seen = Set<String>()
        return ids.compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
    }

    /// The storefront products are priced for, without creating an account: the account's, else
    /// (nobody signed in yet) the configured one, else the store's default.
    func listingStorefront() async throws -> String? {
        do {
            return try await customerStorefront()
        } catch StoreKitError.systemError(OpenStoreKitError.customerNotFound) {
            return configuration.storefront
        }
    }

    /// The account's storefront: products are priced for it, as on a device.
    func customerStorefront() async throws -> String? {
        struct Account: Decodable { var storefront: String? }
        return try decode(Account.self, try await send(.GET, account)).storefront
    }

    /// `own`: a StoreKit 2 purchase of this process, which `Transaction.updates` leaves out
    /// (`OwnPurchases`); false for the original API's payment queue, whose purchases StoreKit 2's
    /// listeners hear of, as on a device.
    func purchase(_ product: Product, options: Set<Product.PurchaseOption>, own: Bool = true) async throws -> Product.PurchaseResult {
        let session = try await start()
        var body: [String: Any] = ["productId": product.id, "customer": configuration.customer]
        for option in options {
            switch option.kind {
            case .appAccountToken(let token): body["appAccountToken"] = token.uuidString.lowercased()
            case .quantity(let quantity): body["quantity"] = quantity
            case .promotionalOfferV1(let offerID, let keyID, let nonce, let signature, let timestamp):
                body["promotionalOffer"] = [
                    "offerID": offerID, "keyID": keyID, "nonce": nonce.uuidString.lowercased(),
                    "signature": signature.base64EncodedString(), "timestamp": timestamp,
                ] as [String: Any]
            case .promotionalOfferJWS(_, let compactJWS): body["promotionalOfferJWS"] = compactJWS
            case .winBackOffer(let id): body["winBackOfferID"] = id
            case .simulatesAskToBuyInSandbox(let value): body["simulatesAskToBuyInSandbox"] = value
            case .introductoryOfferEligibility(let compactJWS): body["introductoryOfferEligibilityJWS"] = compactJWS
            case .billingPlanType(let type): body["billingPlanType"] = type
            case .onStorefrontChange(let handler): try await checkStorefront(of: product, handler)
            case .custom: break
            }
        }
        let ownPurchases = own ? self.ownPurchases : OwnPurchases()  // a throw-away record when not own
        await ownPurchases.begin(product.id)
        var bought: UInt64?
        do {
            let answer: Answer
            do {
                answer = try await send(.POST, app + "/purchases", json: body, refusals: .purchase)
            } catch StoreKitError.userCancelled {
                await ownPurchases.end(product.id, transactionID: nil)
                return .userCancelled
            }
            let result = try purchaseResult(answer, verifier: session.verifier)
            if case .success(let transaction) = result { bought = transaction.unsafePayloadValue.id }
            await ownPurchases.end(product.id, transactionID: bought)
            return result
        } catch {
            await ownPurchases.end(product.id, transactionID: bought)
            throw error
        }
    }

    /// `onStorefrontChange`: the product was priced in another storefront's currency than the
    /// account's now; the app decides whether to go on.
    func checkStorefront(of product: Product, _ handler: Product.PurchaseOption.StorefrontChangeHandler) async throws {
        guard let code = try await customerStorefront(), let now = StoreKitTypes.Storefront.lookup(code),
              let currency = now.currency, currency.identifier != product.currencyCode else { return }
        if !handler.shouldContinuePurchase(now) { throw Product.PurchaseError.productUnavailable }
    }

    /// A purchase or code redemption answer: `purchased` with a signed transaction, or pending.
    func purchaseResult(_ answer: Answer, verifier: LocalVerifier) throws -> Product.PurchaseResult {
        struct Body: Decodable { var status: String; var signedTransaction: String? }
        let body = try decode(Body.self, answer)
        switch body.status {
        case "purchased":
            guard let signed = body.signedTransaction else {
                throw StoreKitError.systemError(OpenStoreKitError.badResponse("a purchase answered without a signed transaction"))
            }
            do {
                return .success(try verifier.transaction(signed))
            } catch {
                throw StoreKitError.systemError(OpenStoreKitError.badResponse("the purchase's signed transaction: \(error)"))
            }
        case "pending", "interrupted":
            return .pending
        default:
            throw StoreKitError.systemError(OpenStoreKitError.badResponse("unknown purchase status \(body.status)"))
        }
    }
}
