import Foundation
import StoreEngine

/// Making StoreKit's APIs fail, per session (Xcode 15's per-API StoreKit errors).
extension SKTestSession {
    /// Makes `api` fail with `error` in this session from now on; nil makes it work again.
    public func setSimulatedError<API: FailableStoreKitAPI>(_ error: API.Failure?, forAPI api: API) async throws {
        guard let name = (API.self as? any NamedAPI.Type)?.apiName else {
            throw SKTestError(.invalidAction, "\(API.self) is not one of StoreKitTest's failable APIs")
        }
        let errorName = (error as? any NamedFailure)?.name
        let world = world
        _ = try await call { try await $0.world(world).setSimulatedError(api: name, error: errorName) }
    }

    /// The error `api` is set to fail with in this session, if any.
    public func simulatedError<API: FailableStoreKitAPI>(forAPI api: API) async -> API.Failure? {
        let world = world
        guard let name = (API.self as? any NamedAPI.Type)?.apiName,
              let info = try? await call({ try await $0.worldInfo(world) }),
              let errorName = info.settings.simulatedErrors[name] else { return nil }
        return (API.Failure.self as? any NamedFailure.Type)?.init(name: errorName) as? API.Failure
    }
}
