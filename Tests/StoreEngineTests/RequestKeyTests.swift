import Testing
import StoreEngine

/// Issue 16 items 10 and 15: Apple's current `TransactionHistoryRequest` parameters only.
/// `excludeRevoked` was deprecated in API 1.8 ("Use the new revoked filter instead") and keeps
/// its own code, INVALID_EXCLUDE_REVOKED 4000025; anything else undocumented is 4000000.
@Suite struct RequestKeyTests {
    func code(_ parameters: [(key: String, value: String)]) -> Int64? {
        do {
            _ = try TransactionHistoryRequest(parameters: parameters)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func historyQueryTakesOnlyApplesParameters() {
        #expect(code([("revoked", "true"), ("revision", "x"), ("inAppOwnershipType", "PURCHASED")]) == nil)
        #expect(code([("excludeRevoked", "true")]) == 4_000_025)
        #expect(code([("productID", "a")]) == 4_000_000)
        #expect(code([("unknown", "x")]) == 4_000_000)
        #expect(code([("startdate", "10")]) == 4_000_000)
    }
}
