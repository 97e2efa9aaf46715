import Foundation
import StoreModel
import StoreStorage

/// The world's verbs for reads for the dashboard and the web pages.
extension StoreWorld {
    /// Customers of a world whose ID contains `text`, or who own a transaction whose ID, original
    /// transaction ID or `appAccountToken` is `text`. Empty text lists the world's customers.
    public func searchCustomers(_ text: String, limit: Int = 200) async throws -> [CustomerMatch] {
        try await reported { try await store.searchCustomers(text, world: id, limit: limit) }
    }

    /// One page of the customer's transactions in the app (refunded, revoked, upgraded and
    /// family-shared ones too), signed, newest purchase first; and the subscriptions' periods as
    /// runs for the timelines. Only the page is read whole and signed, and the periods come back
    /// grouped by SQL: a customer may have thousands of renewals.
    public func customerHistory(bundleId: String, customer: String, offset: Int = 0, limit: Int = 20) async throws -> CustomerHistory {
        try await reported { try await store.customerHistory(bundleId: bundleId, customer: customer, world: id, offset: offset, limit: limit) }
    }

    /// The customer's app transaction if their copy of the app has asked for one; nil otherwise
    /// (looking does not create it, as `appTransaction` does).
    public func existingAppTransaction(bundleId: String, customer: String) async throws -> Signed<AppTransactionPayload>? {
        try await reported { try await store.existingAppTransaction(bundleId: bundleId, customer: customer, world: id) }
    }

    /// Messages of the customer in the app, read or not, oldest first.
    public func allMessages(bundleId: String, customer: String) async throws -> [StoreMessage] {
        try await reported { try await store.allMessages(bundleId: bundleId, customer: customer, world: id) }
    }

    /// The delivery log, newest first: at most `limit` notifications of the world (of one app,
    /// one type, one customer, or only those not delivered or with a failed attempt).
    public func notificationLog(bundleId: String? = nil, type: String? = nil, customer: String? = nil, failuresOnly: Bool = false, limit: Int = 100) async throws -> [NotificationEntry] {
        try await reported { try await store.notificationLog(world: id, bundleId: bundleId, type: type, customer: customer, failuresOnly: failuresOnly, limit: limit) }
    }

    /// The world's Server API keys, oldest first.
    public func apiKeys() async throws -> [APIKeyInfo] {
        try await reported { try await store.apiKeys(world: id) }
    }

    /// The world's latest App Store events, newest first (the events page; it follows on with
    /// `events(world:after:)`).
    public func recentEvents(limit: Int = 200) async throws -> [StoreEvent] {
        try await reported { try await store.recentEvents(world: id, limit: limit) }
    }

    /// The world's figures for the dashboard's charts (see `DashboardFigures`).
    public func dashboardFigures(days: Int = 60, hours: Int = 48) async throws -> DashboardFigures {
        try await reported { try await store.dashboardFigures(world: id, days: days, hours: hours) }
    }

    /// The app's subscription groups in which the customer would still get an introductory offer,
    /// by the same rule a purchase applies (`OfferEligibility.isEligibleForIntroOffer`).
    public func introOfferEligibleGroups(bundleId: String, customer: String) async throws -> Set<String> {
        try await reported { try await store.introOfferEligibleGroups(bundleId: bundleId, customer: customer, world: id) }
    }

    /// Names of the world's customers, stored or met since start-up (a write may still be in
    /// its group commit), sorted.
    public func knownCustomers() async throws -> [String] {
        try await reported { try await store.knownCustomers(world: id) }
    }

    /// The world's notifications due on its clock, oldest due first, each with its URL; after
    /// `position` when given (the next page of a pass).
    public func dueNotifications(after position: DuePosition? = nil, limit: Int) async throws -> [DueNotification] {
        try await reported { try await store.dueNotifications(world: id, after: position, limit: limit) }
    }

    /// How many customers the world holds in memory now: what the bound limits.
    public func customersInMemory() async throws -> Int {
        try await reported { try await store.customersInMemory(world: id) }
    }
}
