import Foundation
import StoreModel
import StoreSigning

/// StoreKit 1's app receipt and Apple's deprecated `verifyReceipt` endpoint, which most existing
/// apps still call: a customer's receipt is PKCS#7 signed by the store's CA and lists their
/// in-app purchases; `verifyReceipt` authenticates one and answers with Apple's `responseBody`
/// (field names and JSON types from Apple's "responseBody" documentation; `status` codes from its
/// "status" page). Rules here; the HTTP routes only translate.
extension AppStore {
    /// Apple's `verifyReceipt` status codes used here.
    public enum ReceiptStatus {
        /// The receipt is authentic and the response carries its contents.
        public static let valid = 0
        /// Not an HTTP POST.
        public static let notPost = 21000
        /// `receipt-data` missing or malformed.
        public static let malformed = 21002
        /// The receipt could not be authenticated.
        public static let notAuthentic = 21003
        /// The shared secret does not match the one on file for the app.
        public static let wrongSharedSecret = 21004
        /// A test-environment receipt sent to production.
        public static let sandboxReceiptInProduction = 21007
        /// A production receipt sent to the test environment.
        public static let productionReceiptInSandbox = 21008
        /// The account cannot be found or was deleted.
        public static let accountNotFound = 21010
    }

    static func sharedSecretKey(_ bundleId: String) -> String { "appSharedSecret:\(bundleId)" }

    /// Sets the app's shared secret (App Store Connect's app-specific shared secret, the
    /// `password` of `verifyReceipt`); nil removes it. Letters and digits, 8 to 64 of them.
    public func setSharedSecret(_ secret: String?, bundleId: String) async throws {
        let app = try app(bundleId)
        if let secret {
            guard (8...64).contains(secret.count), secret.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw StoreError.malformedRequest("sharedSecret is 8 to 64 letters and digits")
            }
        }
        try await database.write(.init(meta: [Self.sharedSecretKey(app.bundleId): secret ?? ""]))
    }

    /// The app's shared secret, nil when none is set.
    public func sharedSecret(bundleId: String) async throws -> String? {
        let app = try app(bundleId)
        guard let secret = try await database.meta(Self.sharedSecretKey(app.bundleId)), !secret.isEmpty else { return nil }
        return secret
    }

    func appReceipt(bundleId: String, customer: String, world worldId: String) async throws -> String {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(worldId)
        guard try await world.customer(customer) != nil else {
            throw StoreError.customerNotFound("no customer named \(customer) in world \(worldId)")
        }
        let receipt = try await appReceiptContents(app: app, customer: customer, world: world)
        return Data(try ReceiptSigner.sign(receipt, authority: authority)).base64EncodedString()
    }

    private func appReceiptContents(app: StoreApp, customer: String, world: World) async throws -> AppReceipt {
        let appTransaction = try await self.appTransaction(bundleId: app.bundleId, customer: customer, world: world.id).payload
        let (records, now) = try await world.transactions(bundleId: app.bundleId, customer: customer, scope: .all)
        var inApp: [InAppReceipt] = []
        for record in records where !(record.finished && record.productKind == ProductKind.consumable.rawValue) {
            let payload = try TransactionPayload(json: Array(record.payload.utf8))
            inApp.append(InAppReceipt(
                quantity: payload.quantity, productId: payload.productId, transactionId: payload.transactionId,
                originalTransactionId: payload.originalTransactionId, purchaseDate: payload.purchaseDate,
                originalPurchaseDate: payload.originalPurchaseDate, expiresDate: payload.expiresDate,
                webOrderLineItemId: payload.webOrderLineItemId.flatMap { Int64($0) }, cancellationDate: payload.revocationDate))
        }
        inApp.sort { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        return AppReceipt(
            bundleId: app.bundleId, applicationVersion: app.applicationVersion,
            originalApplicationVersion: appTransaction.originalApplicationVersion, creationDate: now,
            originalPurchaseDate: appTransaction.originalPurchaseDate, inApp: inApp)
    }

    /// `POST /verifyReceipt`: `sandbox` says which endpoint was called (Apple's
    /// sandbox.itunes.apple.com or buy.itunes.apple.com). Never throws: every outcome is a status.
    public func verifyReceipt(_ body: [UInt8], sandbox: Bool) async -> VerifyReceiptResponse {
        struct Request: Decodable {
            var receiptData: String?
            var password: String?
            var excludeOldTransactions: Bool?
            enum CodingKeys: String, CodingKey {
                case receiptData = "receipt-data", password, excludeOldTransactions = "exclude-old-transactions"
            }
        }
        guard let request = try? JSONDecoder().decode(Request.self, from: Data(body)), let text = request.receiptData,
              let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines), options: .ignoreUnknownCharacters),
              !bytes.isEmpty
        else { return .init(status: ReceiptStatus.malformed) }
        let receipt: AppReceipt
        do {
            receipt = try await ReceiptSigner.verify(Array(bytes), root: authority.rootCertificate, at: clock.now())
        } catch .malformed {
            return .init(status: ReceiptStatus.malformed)
        } catch {
            return .init(status: ReceiptStatus.notAuthentic)
        }
        guard let app = apps.first(where: { $0.bundleId == receipt.bundleId }) else { return .init(status: ReceiptStatus.notAuthentic) }
        let production = app.environment == .production
        let environment = production ? "Production" : "Sandbox"
        if production && sandbox { return .init(status: ReceiptStatus.productionReceiptInSandbox, environment: environment) }
        if !production && !sandbox { return .init(status: ReceiptStatus.sandboxReceiptInProduction, environment: environment) }

        let subscribes = receipt.inApp.contains { app.catalog.product($0.productId)?.kind == ProductKind.autoRenewable }
        let secret = try? await sharedSecret(bundleId: app.bundleId)
        if let password = request.password, !password.isEmpty || secret != nil {
            if password != secret { return .init(status: ReceiptStatus.wrongSharedSecret, environment: environment) }
        } else if subscribes {
            // Apple requires the shared secret for receipts with auto-renewable subscriptions.
            return .init(status: ReceiptStatus.wrongSharedSecret, environment: environment)
        }

        let nowMs = clock.now().milliseconds
        var response = VerifyReceiptResponse(status: ReceiptStatus.valid, environment: environment)
        response.receipt = .init(receipt, app: app, requestMs: nowMs)
        guard subscribes, let first = receipt.inApp.first, let id = Int64(first.originalTransactionId) else { return response }
        do {
            guard let record = try await database.transaction(id: id), record.bundleId == app.bundleId else {
                return .init(status: ReceiptStatus.accountNotFound, environment: environment)
            }
            let world = try await self.loadedWorld(record.world)
            guard try await world.customer(record.customer) != nil else {
                return .init(status: ReceiptStatus.accountNotFound, environment: environment)
            }
            // "Now" is the customer's world's clock (time advances there), not the default world's.
            response.receipt = .init(receipt, app: app, requestMs: await world.nowMs())
            let latest = try await appReceiptContents(app: app, customer: record.customer, world: world)
            response.latestReceipt = Data(try ReceiptSigner.sign(latest, authority: authority)).base64EncodedString()
            let (records, _) = try await world.transactions(bundleId: app.bundleId, customer: record.customer, scope: .all)
            // All of them, except consumables already finished (Apple's rule for latest_receipt_info).
            var payloads = try records.filter { !($0.finished && $0.productKind == ProductKind.consumable.rawValue) }
                .map { try TransactionPayload(json: Array($0.payload.utf8)) }
            if request.excludeOldTransactions == true {
                // Only the latest transaction of each subscription.
                var latestOf: [String: TransactionPayload] = [:]
                for payload in payloads where payload.type == .autoRenewable {
                    if let known = latestOf[payload.originalTransactionId], known.purchaseDate >= payload.purchaseDate { continue }
                    latestOf[payload.originalTransactionId] = payload
                }
                payloads = payloads.filter { $0.type != .autoRenewable || latestOf[$0.originalTransactionId]?.transactionId == $0.transactionId }
            }
            payloads.sort { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
            response.latestReceiptInfo = payloads.map(VerifyReceiptResponse.Transaction.init)
            let statuses = try await subscriptionStatuses(bundleId: app.bundleId, customer: record.customer, world: world.id)
            response.pendingRenewalInfo = statuses.map { VerifyReceiptResponse.PendingRenewal($0.renewalInfo.payload) }
        } catch {
            return .init(status: 21100, environment: environment, isRetryable: true)
        }
        return response
    }
}
