import StoreEngine
import Testing

/// The rule from "What's new with in-app purchase" (WWDC22): an original-API `applicationUsername`
/// that is a UUID becomes the transaction's `appAccountToken`; any other value does not.
@Suite struct ApplicationUsernameTests {
    @Test func aUUIDBecomesTheAppAccountToken() {
        #expect(ApplicationUsername.appAccountToken(for: "7E3FB20B-4CDB-47CC-936D-99D65F608138") == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(ApplicationUsername.appAccountToken(for: "7e3fb20b-4cdb-47cc-936d-99d65f608138") == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    }

    @Test func anythingElseSetsNothing() {
        for name in ["jane@example.com", "", "7E3FB20B-4CDB-47CC-936D", "{7E3FB20B-4CDB-47CC-936D-99D65F608138}", "  7E3FB20B-4CDB-47CC-936D-99D65F608138"] {
            #expect(ApplicationUsername.appAccountToken(for: name) == nil, "\(name)")
        }
        #expect(ApplicationUsername.appAccountToken(for: nil) == nil)
    }
}
