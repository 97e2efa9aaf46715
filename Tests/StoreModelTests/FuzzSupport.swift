import Foundation
import StoreTestSupport
@testable import StoreModel

/// The seed of a fuzz run: OPENSTORE_FUZZ_SEED when set (to replay a failure), else a fresh one.
/// Every fuzz expectation prints it, so a failing run can be replayed exactly.
enum FuzzSeed {
    static func current() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["OPENSTORE_FUZZ_SEED"], let seed = UInt64(text) { return seed }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }
}

/// One step into a JSON document: a member name or an array index.
enum FuzzStep: Equatable {
    case key(String)
    case index(Int)
}

/// A scalar value of a catalog document that the reader type-checks, with its JSON path and the
/// type the reader expects there ("a string", "an integer", …).
struct FuzzLeaf {
    var steps: [FuzzStep]
    var path: String
    var value: JSONValue
    var key: String

    /// Keys the reader ignores (the fixture has them to prove it): nothing under them is checked.
    static let ignoredKeys: Set<String> = ["futureTopLevelKey", "_unknownSetting", "unknownProductKey", "anything"]

    static func all(in document: JSONValue) -> [FuzzLeaf] {
        var leaves: [FuzzLeaf] = []
        walk(document, steps: [], path: "", key: "") { steps, path, key, value in
            switch value {
            case .string, .number, .bool: leaves.append(FuzzLeaf(steps: steps, path: path, value: value, key: key))
            default: break
            }
        }
        return leaves
    }

    /// The path of every value of the document (containers included), but the root's.
    static func paths(in document: JSONValue) -> Set<String> {
        var paths: Set<String> = []
        walk(document, steps: [], path: "", key: "") { _, path, _, _ in
            if !path.isEmpty { paths.insert(path) }
        }
        return paths
    }

    private static func walk(_ value: JSONValue, steps: [FuzzStep], path: String, key: String,
                             _ visit: ([FuzzStep], String, String, JSONValue) -> Void) {
        visit(steps, path, key, value)
        switch value {
        case let .object(members):
            for member in members where !ignoredKeys.contains(member.key) {
                let childPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                walk(member.value, steps: steps + [.key(member.key)], path: childPath, key: member.key, visit)
            }
        case let .array(elements):
            for (index, element) in elements.enumerated() {
                walk(element, steps: steps + [.index(index)], path: "\(path)[\(index)]", key: key, visit)
            }
        default: break
        }
    }

    /// What the reader says it expected here.
    var expected: String {
        switch value {
        case .string: return "a string"
        case .bool: return "a boolean"
        default: return key == "_lastSynchronizedDate" ? "a number" : "an integer"
        }
    }

    /// A value of another JSON type (never null, which means "absent" for optional keys, and
    /// never 0 or 1 for a boolean, which the reader accepts as one).
    func wrongValue(using random: inout SeededGenerator) -> JSONValue {
        let choices: [JSONValue]
        switch value {
        case .string: choices = [.number("7"), .bool(true), .array([]), .object([])]
        case .bool: choices = [.string("yes"), .number("2"), .array([]), .object([])]
        default: choices = [.string("7"), .bool(false), .array([]), .object([])]
        }
        return choices[Int(random.next() % UInt64(choices.count))]
    }
}

extension JSONValue {
    /// This document with the value at `steps` replaced.
    func replacing(at steps: [FuzzStep], with replacement: JSONValue) -> JSONValue {
        guard let first = steps.first else { return replacement }
        let rest = Array(steps.dropFirst())
        switch (self, first) {
        case let (.object(members), .key(key)):
            return .object(members.map { $0.key == key ? (key: $0.key, value: $0.value.replacing(at: rest, with: replacement)) : $0 })
        case let (.array(elements), .index(index)):
            var copy = elements
            copy[index] = copy[index].replacing(at: rest, with: replacement)
            return .array(copy)
        default:
            return self
        }
    }
}
