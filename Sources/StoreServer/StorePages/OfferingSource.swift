import StoreViews

/// Asks a subscription backend which offering a customer's paywall shows (`bundleId`, customer);
/// nil when there is none, or the backend cannot say in time: the page then sells its built-in
/// choice. The store never depends on the backend's module: `openstore serve` supplies this.
public typealias OfferingSource = @Sendable (_ bundleId: String, _ customer: String) async -> RemoteOffering?
