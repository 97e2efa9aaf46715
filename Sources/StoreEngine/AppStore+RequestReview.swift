extension AppStore {
    func requestReview(bundleId: String, customer: String, appVersion: String, world: String) async throws -> ReviewPromptDecision {
        let app = try app(bundleId)
        try Self.checkCustomerName(customer)
        guard !appVersion.isEmpty, appVersion.unicodeScalars.count <= 64,
              !appVersion.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else {
            throw StoreError.malformedRequest("appVersion must be 1–64 characters without spaces, like CFBundleShortVersionString (\"1.2.3\")")
        }
        return try await self.loadedWorld(world).requestReview(bundleId: app.bundleId, customer: customer, appVersion: appVersion)
    }
}
