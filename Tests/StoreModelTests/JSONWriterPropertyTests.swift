import Foundation
import StoreModel
import Testing

/// `JSONWriter` against Foundation's `JSONSerialization` on random payloads (strings with quotes,
/// control characters and non-BMP text, integers up to the edges of `Int64`, booleans, arrays and
/// nested objects): what Foundation reads back equals what was written. And `WireObject` reads
/// the edges of `Int64` exactly and refuses what does not fit.
@Suite struct JSONWriterPropertyTests {
    /// A small deterministic generator, so a failing seed replays.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    indirect enum Value: Equatable {
        case string(String), int(Int64), bool(Bool), strings([String]), object([(String, Value)])

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case let (.string(x), .string(y)): x == y
            case let (.int(x), .int(y)): x == y
            case let (.bool(x), .bool(y)): x == y
            case let (.strings(x), .strings(y)): x == y
            case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: false
            }
        }
    }

    static let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}",
                                             "\u{7F}", "é", "\u{2028}", "\u{FFFF}", "🐦", "𝄞", "\u{10FFFF}"]

    static func string(_ rng: inout SplitMix) -> String {
        var out = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &rng) { out.append(alphabet.randomElement(using: &rng)!) }
        return String(out)
    }

    static func int(_ rng: inout SplitMix) -> Int64 {
        let edges: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max, 9_007_199_254_740_993]
        return Bool.random(using: &rng) ? edges.randomElement(using: &rng)! : Int64.random(in: .min ... .max, using: &rng)
    }

    static func object(_ rng: inout SplitMix, depth: Int) -> [(String, Value)] {
        var members: [(String, Value)] = []
        var keys = Set<String>()
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let key = string(&rng)
            guard keys.insert(key).inserted else { continue }
            let value: Value = switch Int.random(in: 0..<(depth < 2 ? 5 : 4), using: &rng) {
            case 0: .string(string(&rng))
            case 1: .int(int(&rng))
            case 2: .bool(Bool.random(using: &rng))
            case 3: .strings((0..<Int.random(in: 0...3, using: &rng)).map { _ in string(&rng) })
            default: .object(object(&rng, depth: depth + 1))
            }
            members.append((key, value))
        }
        return members
    }

    static func write(_ members: [(String, Value)], into json: inout JSONWriter) {
        for (key, value) in members {
            switch value {
            case .string(let s): json.field(key, s)
            case .int(let n): json.field(key, n)
            case .bool(let b): json.field(key, b)
            case .strings(let list): json.field(key, list)
            case .object(let inner):
                json.beginObject(key)
                write(inner, into: &json)
                json.endObject()
            }
        }
    }

    /// Whether Foundation's reading of a member is the value written (integers exactly).
    static func matches(_ value: Value, _ got: Any) -> Bool {
        switch value {
        case .string(let s): return (got as? String) == s
        case .int(let n): return (got as? NSNumber).map { $0.int64Value == n && $0.stringValue == String(n) } ?? false
        case .bool(let b): return (got as? Bool) == b
        case .strings(let list): return (got as? [Any]).map { $0.count == list.count && zip($0, list).allSatisfy { ($0 as? String) == $1 } } ?? false
        case .object(let inner): return (got as? [String: Any]).map { equal(inner, $0) } ?? false
        }
    }

    static func equal(_ written: [(String, Value)], _ parsed: [String: Any]) -> Bool {
        written.count == parsed.count && written.allSatisfy { key, value in parsed[key].map { matches(value, $0) } ?? false }
    }

    @Test func foundationReadsBackWhatJSONWriterWrote() throws {
        var rng = SplitMix(state: UInt64(ProcessInfo.processInfo.environment["OPENSTORE_JSON_SEED"].flatMap { UInt64($0) } ?? 20_261_123))
        for round in 0..<500 {
            let members = Self.object(&rng, depth: 0)
            var json = JSONWriter()
            json.beginObject()
            Self.write(members, into: &json)
            json.endObject()
            let parsed = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any]
            #expect(parsed.map { Self.equal(members, $0) } == true, "round \(round): \(String(decoding: json.bytes, as: UTF8.self))")
        }
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max])
    func int64EdgesRoundTripExactly(_ value: Int64) throws {
        var json = JSONWriter()
        json.beginObject()
        json.field("n", value)
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == "{\"n\":\(value)}")
        #expect(try WireObject(json: json.bytes).int64("n") == value)
    }

    @Test func numbersPastInt64AreNotReadAsIntegers() throws {
        // One past each edge, a fraction, an exponent and Double's extremes: never a wrong Int64.
        let object = try WireObject(json: Array(#"{"over":9223372036854775808,"under":-9223372036854775809,"frac":1.5,"exp":1e3,"max":1.7976931348623157e308,"tiny":5e-324}"#.utf8))
        for key in ["over", "under", "frac", "max", "tiny"] {
            #expect(object.int64(key) == nil, "\(key)")
        }
        // 1e3 is a whole number: read as 1000 or refused, never misread.
        #expect(object.int64("exp") == nil || object.int64("exp") == 1000)
    }
}
