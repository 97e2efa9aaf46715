import Hummingbird
import StoreEngine

extension StoreRequestContext {
    /// The world a device route acts in: `{world}` under `/storekit/v1/worlds/{world}/…`, and the
    /// `default` world under plain `/storekit/v1/…`, so one set of handlers serves both.
    func world() throws -> String {
        parameters.get("world") == nil ? AppStore.defaultWorld : try pathValue("world")
    }
}
