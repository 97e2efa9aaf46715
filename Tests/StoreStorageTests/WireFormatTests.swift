import Foundation
import StoreModel
import Testing

/// The JSON the store signs and stores (`JSONWriter`) and reads back (`WireObject`): every string
/// survives the round trip byte for byte, through Foundation's parser too, and bad input is
/// refused rather than misread or trapped on.
@Suite struct WireFormatTests {
    static func written(_ value: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("v", value)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (#"say "hi""#, #"{"v":"say \"hi\""}"#),
        (#"C:\path\"#, #"{"v":"C:\\path\\"}"#),
        ("a\nb\rc\td", #"{"v":"a\nb\rc\td"}"#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #"{"v":"\u0000\u0001\u0008\u000c\u001b\u001f"}"#),
        // Not control characters for JSON: written as they are.
        ("\u{7F} / é", "{\"v\":\"\u{7F} / é\"}"),
        // U+2028 and U+2029 are valid unescaped in JSON (RFC 8259) and written as UTF-8.
        ("line\u{2028}para\u{2029}", "{\"v\":\"line\u{2028}para\u{2029}\"}"),
        // Text outside the Basic Multilingual Plane: UTF-8, never a \u surrogate pair.
        ("🐦 𝄞 \u{10FFFF}", "{\"v\":\"🐦 𝄞 \u{10FFFF}\"}"),
    ])
    func stringsAreEscapedAsJSONRequires(_ value: String, _ json: String) throws {
        #expect(Self.written(value) == json)
        // Foundation's parser and our reader both get the same text back.
        let parsed = try JSONSerialization.jsonObject(with: Data(Self.written(value).utf8)) as? [String: String]
        #expect(parsed?["v"] == value)
        #expect(try WireObject(json: Array(Self.written(value).utf8)).string("v") == value)
    }

    @Test func objectsKeepTheirOrderAndLeaveOutNil() throws {
        var json = JSONWriter()
        json.beginObject()
        json.field("z", "last?" as String?)
        json.field("none", nil as String?)
        json.field("min", Int64.min)
        json.field("max", Int64.max)
        json.field("zero", 0 as Int64?)
        json.field("yes", true)
        json.field("list", ["a", "\"b\""])
        json.beginObject("inner")
        json.field("n", -42 as Int?)
        json.endObject()
        json.raw("raw", Array(#"{"x":[1,2]}"#.utf8))
        json.endObject()
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text == #"{"z":"last?","min":-9223372036854775808,"max":9223372036854775807,"zero":0,"yes":true,"list":["a","\"b\""],"inner":{"n":-42},"raw":{"x":[1,2]}}"#)

        let read = try WireObject(json: json.bytes)
        #expect(read.string("z") == "last?" && read.string("none") == nil)
        #expect(read.int64("min") == Int64.min && read.int64("max") == Int64.max && read.int64("zero") == 0)
        #expect(read.bool("yes") == true && read.strings("list") == ["a", "\"b\""])
        #expect(read.object("inner")?.int("n") == -42)
    }

    @Test func readingIsTypedAndStrict() throws {
        let o = try WireObject(json: Array(#"{"s":"1","n":12,"f":1.5,"e":1e3,"big":1e300,"huge":123456789012345678901234567890,"b":false,"nul":null,"dup":1,"dup":2,"esc":"\ud83d\udc26\u00e9\n"}"#.utf8))
        // Mistyped fields read as absent, never as a converted value.
        #expect(o.string("n") == nil && o.int64("s") == nil && o.bool("n") == nil && o.string("nul") == nil)
        #expect(o.int64("n") == 12 && o.int64("e") == 1_000)
        // Numbers that are not whole, or do not fit 64 bits, are not integers (and never trap).
        #expect(o.int64("f") == nil && o.int64("big") == nil && o.int64("huge") == nil)
        #expect(o.bool("b") == false)
        // A repeated key keeps its last value, as a dictionary would.
        #expect(o.int64("dup") == 2)
        #expect(o.string("esc") == "🐦é\n")
        #expect(throws: (any Error).self) { try o.require("missing") }
        #expect(throws: (any Error).self) { try o.requireInt64("s") }
        #expect(try o.require("s") == "1")
    }

    @Test(arguments: [
        #"{"v":"\ud800"}"#, #"{"v":"\udc00"}"#, #"{"v":"\ud800\u0041"}"#, #"{"v":"\ud83d"}"#,
        #"{"v":"a"#, #"{"v":"\x"}"#, "{\"v\":\"tab\there\"}", #"["not","an","object"]"#, "", "{", #"{"v":01}"#,
        String(repeating: "[", count: 10_000),
    ])
    func badJSONIsRefused(_ text: String) {
        #expect(throws: (any Error).self, "\(text.prefix(40))") { try WireObject(json: Array(text.utf8)) }
    }

    @Test func invalidUTF8IsRefused() {
        // A UTF-16 surrogate encoded as UTF-8 (CESU), an overlong "/", a stray continuation byte.
        for bytes: [UInt8] in [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80], [0xF5, 0x80, 0x80, 0x80]] {
            let json = Array(#"{"v":""#.utf8) + bytes + Array(#""}"#.utf8)
            #expect(throws: (any Error).self, "\(bytes)") { try WireObject(json: json) }
        }
    }
}
