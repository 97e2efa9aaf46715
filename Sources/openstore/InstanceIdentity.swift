import Foundation

/// Which instance of a group sharing one PostgreSQL this process is (docs/deploy.md). The identity
/// lives in the data folder (`instance-id`), so an instance restarted on the same folder, after a
/// crash or a deploy, is the same instance: it takes its worlds straight back instead of waiting
/// for its old leases to expire. Two processes must not share a data folder.
enum InstanceIdentity {
    static func load(dataFolder: String) -> String {
        let file = URL(fileURLWithPath: dataFolder).appendingPathComponent("instance-id")
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) { return id }
        }
        let id = UUID().uuidString.lowercased()
        // A folder that cannot be written still runs: the identity is then this process's alone.
        try? FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        try? Data((id + "\n").utf8).write(to: file, options: .atomic)
        return id
    }
}
