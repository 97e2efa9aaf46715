import Foundation
import OpenStoreKit

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The command line: a command, its positional arguments and the connection options.
struct Arguments {
    var command: String
    var positional: [String] = []
    var options: [String: String] = [:]
    var createCustomer = false

    init(_ words: [String]) throws {
        guard let first = words.first, !first.hasPrefix("-") else { throw UsageError(usage) }
        command = first
        var rest = words.dropFirst()[...]
        while let word = rest.popFirst() {
            if word == "--create-customer" {
                createCustomer = true
            } else if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                guard ["store", "bundle-id", "customer", "world", "storefront", "count"].contains(name) else {
                    throw UsageError("unknown option \(word)\n\(usage)")
                }
                guard let value = rest.popFirst() else { throw UsageError("\(word) needs a value") }
                options[name] = value
            } else {
                positional.append(word)
            }
        }
    }

    var count: Int { options["count"].flatMap(Int.init) ?? 1 }

    func configuration() throws -> OpenStoreKit.Configuration {
        guard let store = options["store"] else {
            var configuration = try OpenStoreKit.Configuration.fromEnvironment()
            if createCustomer { configuration.createsCustomer = true }
            return configuration
        }
        guard let url = URL(string: store), url.host != nil else { throw UsageError("--store \(store) is not a URL") }
        guard let bundle = options["bundle-id"], let customer = options["customer"] else {
            throw UsageError("--bundle-id and --customer are required with --store")
        }
        if let count = options["count"], Int(count) == nil { throw UsageError("--count must be a whole number") }
        return OpenStoreKit.Configuration(
            store: url, bundleID: bundle, customer: customer, world: options["world"] ?? "default",
            storefront: options["storefront"], createsCustomer: createCustomer)
    }
}

/// One JSON object per line, keys in the order given.
enum JSONLine {
    enum Value {
        case string(String), bool(Bool), decimal(Decimal), null
    }

    static func print(_ fields: KeyValuePairs<String, Value>) {
        var text = "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { text += "," }
            text += quote(key) + ":"
            switch value {
            case .string(let string): text += quote(string)
            case .bool(let bool): text += bool ? "true" : "false"
            case .decimal(let decimal): text += "\(decimal)"
            case .null: text += "null"
            }
        }
        // Written straight to the file descriptor, so a reader sees each line as it is printed.
        FileHandle.standardOutput.write(Data((text + "}\n").utf8))
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
