import StoreShared
import Testing

@Suite struct TextSafetyTests {
    @Test func constantTimeEqualityIsEquality() {
        #expect(ConstantTime.equal("s3cret-token", "s3cret-token"))
        #expect(!ConstantTime.equal("s3cret-token", "s3cret-tokem"))
        #expect(!ConstantTime.equal("s3cret", "s3cret-token"))
        #expect(!ConstantTime.equal("", "x") && ConstantTime.equal("", ""))
    }

    @Test func percentEncodingLeavesOnlyUnreservedASCII() {
        #expect(PercentEncoding.unreserved("a-Z_0.9~") == "a-Z_0.9~")
        #expect(PercentEncoding.unreserved("a b/c?d=e&f") == "a%20b%2Fc%3Fd%3De%26f")
        #expect(PercentEncoding.unreserved("café") == "caf%C3%A9")
    }
}
