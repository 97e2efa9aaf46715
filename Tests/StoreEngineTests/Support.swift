import Foundation
import StoreEngine
import StoreModel
import StoreStorage
import StoreTestSupport

let testBundle = "com.example.test"

func makeApp(environment: StoreEnvironment = .sandbox, bundleId: String = testBundle) throws -> StoreApp {
    try StoreApp(bundleId: bundleId, appAppleId: 1_234_567_890, environment: environment, name: "Test", catalogJSON: testCatalogJSON)
}

func databasePath() -> String {
    TemporaryFolder.make("engine").appendingPathComponent("store.sqlite").path
}

func makeStore(path: String = databasePath(), clock: TestClock = TestClock(), apps: [StoreApp]? = nil) async throws -> AppStore {
    let database = try await StoreDatabase.open(path: path)
    return try await AppStore.open(database: database, apps: apps ?? [try makeApp()], clock: clock)
}
