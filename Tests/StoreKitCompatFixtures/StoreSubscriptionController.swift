import StoreKit
import Combine

/// Food Truck's subscription controller: the subscriptions of one group, which one the customer
/// is entitled to, and its renewal preference; kept current by `Status.updates`.
@MainActor
public final class StoreSubscriptionController: ObservableObject {
    @Published public private(set) var subscriptions: [Product] = []
    @Published public private(set) var entitledSubscriptionID: Product.ID?
    @Published public private(set) var autoRenewPreference: Product.ID?
    @Published public private(set) var renewalState: Product.SubscriptionInfo.RenewalState?
    /// The status updates the listener received, newest last.
    @Published public private(set) var statusHistory: [Product.SubscriptionInfo.Status] = []
    @Published public private(set) var transactionHistory: [Transaction] = []

    public let productIDs: [String]
    private var groupID: String?

    public init(productIDs: [String]) {
        self.productIDs = productIDs
    }

    public func loadSubscriptions() async throws {
        subscriptions = try await Product.products(for: productIDs).sorted { $0.price < $1.price }
        groupID = subscriptions.first?.subscription?.subscriptionGroupID
        await updateEntitlement()
    }

    public var entitledSubscription: Product? {
        subscriptions.first { $0.id == entitledSubscriptionID }
    }

    func handle(update status: Product.SubscriptionInfo.Status) {
        statusHistory.append(status)
        guard case .verified(let transaction) = status.transaction,
              case .verified(let renewalInfo) = status.renewalInfo else {
            print("Unverified status update")
            return
        }
        apply(status.state, transaction: transaction, renewalInfo: renewalInfo)
    }

    func record(_ transaction: Transaction) {
        transactionHistory.append(transaction)
    }

    public func updateEntitlement() async {
        guard let groupID else { return }
        do {
            let statuses = try await Product.SubscriptionInfo.status(for: groupID)
            guard let status = statuses.first,
                  case .verified(let transaction) = status.transaction,
                  case .verified(let renewalInfo) = status.renewalInfo else {
                entitledSubscriptionID = nil
                renewalState = nil
                return
            }
            apply(status.state, transaction: transaction, renewalInfo: renewalInfo)
        } catch {
            print("Could not read the subscription status: \(error)")
        }
    }

    private func apply(_ state: Product.SubscriptionInfo.RenewalState, transaction: Transaction,
                       renewalInfo: Product.SubscriptionInfo.RenewalInfo) {
        renewalState = state
        switch state {
        case .subscribed, .inGracePeriod, .inBillingRetryPeriod:
            entitledSubscriptionID = renewalInfo.currentProductID
            autoRenewPreference = renewalInfo.autoRenewPreference
        case .expired, .revoked:
            entitledSubscriptionID = nil
            autoRenewPreference = nil
        default:
            print("Unknown renewal state \(state) for \(transaction.productID)")
        }
    }
}
