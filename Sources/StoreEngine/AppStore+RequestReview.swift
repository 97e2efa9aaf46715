extension AppStore {
    /// `AppStore.requestReview(in:)`: whether the rating prompt would show now for the customer in
    /// the app at `appVersion` (its `CFBundleShortVersionString`). A prompt that shows counts
    /// towards the limits of `ReviewPromptPolicy`.
    public func requestReview(bundleId: String, customer: String, appVersion: String, world: String = AppStore.defaultWorld) async throws -> ReviewPromptDecision {
        let app = try app(bundleId)
        try Self.checkCustomerName(customer)
        guard !appVersion.isEmpty, appVersion.count <= 64,
              !appVersion.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else {
            throw StoreError.malformedRequest("appVersion must be 1–64 characters without spaces, like CFBundleShortVersionString (\"1.2.3\")")
        }
        return try await self.world(world).requestReview(bundleId: app.bundleId, customer: customer, appVersion: appVersion)
    }
}
