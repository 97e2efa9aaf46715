import Foundation
import StoreModel
import StoreStorage

/// App Store Server Notifications V2, emitted: each App Store event of a batch becomes an outbox
/// row in the same database transaction, so an event is never recorded without its
/// notification. The row snapshots what the notification carries as of the event (transaction,
/// renewal info, status), unsigned; the delivery service signs it. Apps without a notification
/// URL for their environment in this world get none, as at Apple.
extension World {
    func prepareNotifications(_ batch: inout WriteBatch) async throws {
        let book = env.notificationURLs
        let urls: [String: String]
        if let cached = book.cached(world: id) {
            urls = cached
        } else {
            urls = try await book.urls(database: env.database, world: id)
        }
        guard !urls.isEmpty else { return }
        var rows: [NotificationWrite] = []
        for event in batch.events {
            guard let app = env.apps[event.bundleId],
                  urls[NotificationURLBook.key(bundleId: app.bundleId, environment: app.environment.rawValue)] != nil
            else { continue }
            rows.append(.emit(try await notificationRecord(for: event, app: app, batch: batch)))
        }
        batch.notifications += rows
    }

    private func notificationRecord(for event: EventRecord, app: StoreApp, batch: WriteBatch) async throws -> NotificationRecord {
        let uuid = env.identifiers.uuid()
        var scratch = WriteBatch()
        func row(bodyKey: String, body: String, transaction: String?, renewal: String?, originalId: Int64?) -> NotificationRecord {
            NotificationRecord(
                seq: event.seq, uuid: uuid, world: id, bundleId: app.bundleId, customer: event.customer,
                environment: app.environment.rawValue, type: event.type, subtype: event.subtype,
                transactionId: event.transactionId, originalId: originalId, signedMs: event.atMs, bodyKey: bodyKey,
                body: body, transactionJSON: transaction, renewalJSON: renewal, nextAttemptMs: event.atMs)
        }
        if event.type == NotificationType.rescindConsent.rawValue {
            // `appData`; its `signedAppTransactionInfo` is signed at delivery, as nested payloads are.
            let key = CustomerKey(bundleId: app.bundleId, customer: event.customer)
            let appTransaction = try await appTransactionCreatingIfNeeded(key, batch: &scratch)
            let payload = AppStore.appTransactionPayload(appTransaction, app: app, nowMs: event.atMs, nonce: env.identifiers.uuid(), preorderMs: try await preorderMs(key))
            return row(bodyKey: "appData", body: NotificationPayload.appDataBody(app: app),
                       transaction: String(decoding: payload.jsonBytes, as: UTF8.self), renewal: nil, originalId: nil)
        }
        if event.type == NotificationType.renewalExtension.rawValue && event.subtype == NotificationSubtype.summary.rawValue {
            return row(bodyKey: "summary", body: NotificationPayload.summaryBody(app: app, eventData: event.data),
                       transaction: nil, renewal: nil, originalId: nil)
        }
        var record: TransactionRecord?
        if let transactionId = event.transactionId {
            record = try await transactionRecord(transactionId, pending: batch, committing: committing)
        }
        var transactionJSON: String?
        if let record, var payload = decided.payloads[record.seq] {
            // Decided in this batch: the row's JSON is this value's, used as is when dated alike.
            if payload.signedDate == event.atMs {
                transactionJSON = record.payload
            } else {
                payload.signedDate = event.atMs
                transactionJSON = String(decoding: payload.jsonBytes, as: UTF8.self)
            }
        } else if let record, var payload = try? TransactionPayload(json: Array(record.payload.utf8)) {
            payload.signedDate = event.atMs
            transactionJSON = String(decoding: payload.jsonBytes, as: UTF8.self)
        }
        let originalId = event.originalId ?? record?.originalId
        var chain = originalId.flatMap { chainSnapshot($0, before: event.seq, in: batch) }
        if chain == nil, let record {
            // A family member's copy: the purchaser's subscription as the member sees it.
            chain = familyMemberChain(of: record) { chainSnapshot($0, before: event.seq, in: batch) }
        }
        var renewalJSON: String?
        if let chain {
            let info = RenewalInfoView.payload(
                of: chain, environment: app.environment, nowMs: event.atMs,
                winBackOfferIds: OfferEligibility.winBackOfferIds(for: chain, catalog: app.catalog))
            renewalJSON = String(decoding: info.jsonBytes, as: UTF8.self)
        }
        let reason = event.data.flatMap { try? WireObject(json: Array($0.utf8)) }?.string("consumptionRequestReason")
        // The customer's installed version when known here, else the app's current one (never a made-up 1.0).
        let version = appTransactions[CustomerKey(bundleId: app.bundleId, customer: event.customer)]?.applicationVersion ?? app.applicationVersion
        let body = NotificationPayload.dataBody(
            app: app, bundleVersion: version, status: chain?.status.rawValue,
            consumptionRequestReason: event.type == NotificationType.consumptionRequest.rawValue ? reason : nil)
        return row(bodyKey: "data", body: body, transaction: transactionJSON, renewal: renewalJSON, originalId: originalId)
    }

    /// The chain as it stood when the event was emitted: the last version stored in this batch
    /// before the event (a year's catch-up holds many), else the current one.
    private func chainSnapshot(_ originalId: Int64, before seq: Int64, in batch: WriteBatch) -> SubscriptionChain? {
        if let stored = batch.subscriptions.last(where: { $0.originalId == originalId && $0.version < seq }) {
            if let chain = decided.chains[stored.version] { return chain }
            if let chain = try? SubscriptionChain(json: Array(stored.state.utf8)) { return chain }
        }
        return chains[originalId]
    }
}
