import Foundation
import Testing
@testable import StoreSigning

/// The hand-written codecs must agree byte for byte with Foundation's, at every length.
struct Base64URLTests {
    private func foundationURL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodeMatchesFoundationForManyLengths() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.encode(bytes) == foundationURL(bytes), "length \(length)")
            #expect(Base64URL.encodedCount(length) == foundationURL(bytes).utf8.count)
            #expect(Base64URL.encodeStandard(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
            #expect(Base64URL.decode(foundationURL(bytes)) == bytes)
            #expect(Base64URL.decodeStandard(Data(bytes).base64EncodedString()) == bytes)
        }
        for length in [1000, 4096, 65_537] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.encode(bytes) == foundationURL(bytes))
        }
    }

    @Test func appendWorksForNonContiguousCollections() {
        let bytes: [UInt8] = Array(0..<200)
        var out: [UInt8] = []
        Base64URL.append(bytes.lazy.map { $0 }, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == foundationURL(bytes))
    }

    @Test func decodeRejectsInvalidInput() {
        #expect(Base64URL.decode("a") == nil)            // impossible length
        #expect(Base64URL.decode("ab+c") == nil)         // standard alphabet in base64url
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode("aGk") == [104, 105])
        #expect(Base64URL.decode("aGl") == nil)          // non-canonical trailing bits
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decodeStandard("aGk") == nil)  // padding is mandatory
        #expect(Base64URL.decodeStandard("aGk=") == [104, 105])
        #expect(Base64URL.decodeStandard("a-_=") == nil) // URL alphabet in standard base64
        #expect(Base64URL.decodeStandard("====") == nil)
        #expect(Base64URL.decodeStandard("aG==k===") == nil)
    }
}
