/// Two ready-made catalogs in Xcode `.storekit` format, modeled on Apple's Backyard Birds and
/// Food Truck samples, so the server, CLI and tests can start a working store without any file.
/// The texts are written as JSON (not built as values) so they also exercise the catalog reader.
public enum DemoCatalogs {
    /// The bundle ID the Backyard Birds catalog is meant for.
    public static let backyardBirdsBundleID = "com.example.backyardbirds"
    /// The bundle ID the Food Truck catalog is meant for.
    public static let foodTruckBundleID = "com.example.foodtruck"

    /// Each demo as (bundle ID, `.storekit` JSON text).
    public static var all: [(bundleID: String, json: String)] {
        [(backyardBirdsBundleID, backyardBirds), (foodTruckBundleID, foodTruck)]
    }
}
