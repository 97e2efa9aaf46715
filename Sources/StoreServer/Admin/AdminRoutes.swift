import Foundation
import Hummingbird
import StoreEngine

/// The admin API (`/admin/v1`): worlds, their clocks and the Transaction Manager's switches, for
/// tests and tools. Documented in `openapi.json` under "Admin API". Guarded by `AdminAccess`.
/// The per-transaction actions live in `AdminTransactionRoutes`.
struct AdminRoutes {
    let store: AppStore
    let token: String?

    func register(on router: Router<StoreRequestContext>) {
        let admin = router.group("admin/v1").add(middleware: AdminAccess(token: token))
        admin.get("worlds") { _, _ in
            try JSONResponse.ok(AdminView.WorldList(worlds: await store.listWorlds().map(AdminView.World.init)))
        }
        admin.post("worlds") { request, _ in try await createWorld(request) }
        admin.get("worlds/:world") { _, context in
            try JSONResponse.ok(AdminView.World(try await store.worldInfo(try context.pathValue("world"))))
        }
        admin.delete("worlds/:world") { _, context in
            let world = try context.pathValue("world")
            try await store.deleteWorld(world)
            return try JSONResponse.ok(AdminView.Deleted(id: world))
        }
        admin.post("worlds/:world/reset") { _, context in
            try JSONResponse.ok(AdminView.World(try await store.resetWorld(try context.pathValue("world"))))
        }

        admin.get("worlds/:world/time") { _, context in
            try JSONResponse.ok(AdminView.Time(try await store.worldInfo(try context.pathValue("world"))))
        }
        admin.post("worlds/:world/time/advance") { request, context in try await advance(request, context) }
        admin.post("worlds/:world/time/rate") { request, context in
            let rate = try AdminBody.rate(try await request.decodeJSON(AdminBody.Rate.self).rate)
            return try JSONResponse.ok(AdminView.Time(try await store.setTimeRate(try context.pathValue("world"), rate: rate)))
        }

        admin.patch("worlds/:world/settings") { request, context in try await updateSettings(request, context) }
        admin.get("worlds/:world/simulated-errors") { _, context in try await simulatedErrors(context) }
        admin.put("worlds/:world/simulated-errors/:api") { request, context in
            let error = try await request.decodeJSON(AdminBody.SimulatedError.self).error
            guard !error.isEmpty else { throw RequestError.malformed("field \"error\" must name a StoreKit error") }
            return try await setSimulatedError(context, error: error)
        }
        admin.delete("worlds/:world/simulated-errors/:api") { _, context in try await setSimulatedError(context, error: nil) }

        AdminTransactionRoutes(store: store).register(on: admin)
        AdminConsentRoutes(store: store).register(on: admin)
    }

    func createWorld(_ request: Request) async throws -> Response {
        let body = try await request.decodeJSON(AdminBody.CreateWorld.self)
        let rate = try body.rate.map(AdminBody.rate)
        return try JSONResponse.ok(AdminView.World(try await store.createWorld(body.id, rate: rate)), status: .created)
    }

    func advance(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let world = try context.pathValue("world")
        let jump = try AdminBody.duration(try await request.decodeJSON(AdminBody.Advance.self).duration)
        let before = try await context.world(world, in: store).nowMs()
        let info = try await store.advanceTime(world, by: jump)
        return try JSONResponse.ok(AdminView.Time(info, advancedMs: jump.milliseconds(from: before)))
    }

    func updateSettings(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(AdminBody.Settings.self)
        guard body.unknown.isEmpty else {
            throw RequestError.malformed(
                "unknown setting(s) \(body.unknown.joined(separator: ", ")); known: \(AdminBody.Settings.known.sorted().joined(separator: ", "))")
        }
        if let limit = body.switches.renewalLimit, limit < 0 {
            throw RequestError.malformed("field \"renewalLimit\" must be 0 (no limit) or more")
        }
        return try JSONResponse.ok(AdminView.World(try await context.world(try context.pathValue("world"), in: store).setSwitches(body.switches)))
    }

    func simulatedErrors(_ context: StoreRequestContext) async throws -> Response {
        let info = try await store.worldInfo(try context.pathValue("world"))
        return try JSONResponse.ok(AdminView.SimulatedErrors(simulatedErrors: AppStore.failableAPIs.map {
            AdminView.SimulatedError(api: $0, slug: AdminBody.slug($0), error: info.settings.simulatedErrors[$0])
        }))
    }

    func setSimulatedError(_ context: StoreRequestContext, error: String?) async throws -> Response {
        let api = try AdminBody.failableAPI(try context.pathValue("api"))
        let info = try await context.world(try context.pathValue("world"), in: store).setSimulatedError(api: api, error: error)
        return try JSONResponse.ok(AdminView.SimulatedError(api: api, slug: AdminBody.slug(api), error: info.settings.simulatedErrors[api]))
    }
}
