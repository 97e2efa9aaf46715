import StoreShared
import Testing

/// Form bodies and query strings as browsers send them (WHATWG URL's form-urlencoded parser).
@Suite struct FormEncodingTests {
    @Test(arguments: [
        ("a+b", "a b"), ("a%2Bb", "a+b"), ("%2B+%2B", "+ +"), ("caf%C3%A9", "café"), ("%F0%9F%90%A6", "🐦"),
        // A bad escape stays as written, and does not stop the rest from being decoded.
        ("100%", "100%"), ("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("a%20b%zz", "a b%zz"), ("%%41", "%A"),
        // Bytes that are not UTF-8 become U+FFFD, as in a browser.
        ("caf%E9", "caf\u{FFFD}"), ("%FF%FE+x", "\u{FFFD}\u{FFFD} x"),
        ("", ""), ("plain", "plain"),
    ])
    func unescape(_ raw: String, _ decoded: String) {
        #expect(FormEncoding.unescape(Substring(raw)) == decoded)
    }

    @Test func pairsKeepOrderEmptyValuesAndTheFirstOfEachName() {
        let pairs = FormEncoding.decode("a=1&&b=&c&a=2&d=x%3Dy&e=1=2")
        #expect(pairs.map(\.0) == ["a", "b", "c", "a", "d", "e"])
        #expect(pairs.map(\.1) == ["1", "", "", "2", "x=y", "1=2"])
        #expect(FormEncoding.fields("a=1&a=2") == ["a": "1"])
        #expect(FormEncoding.decode(nil).isEmpty && FormEncoding.decode("").isEmpty)
    }

    @Test func writtenQueriesReadBackTheSame() {
        let values: [(String, String?)] = [("customer", "Zoë & Jo+1"), ("skip", nil), ("page", "a/b?c=d#e"), ("emoji", "🐦")]
        let query = FormEncoding.query(values)
        #expect(query == "customer=Zo%C3%AB%20%26%20Jo%2B1&page=a%2Fb%3Fc%3Dd%23e&emoji=%F0%9F%90%A6")
        #expect(FormEncoding.decode(query).map(\.1) == ["Zoë & Jo+1", "a/b?c=d#e", "🐦"])
    }
}
