import Foundation
import StoreServer

/// The lines `openstore serve` prints once it listens (the store's, then the demo backend's).
/// Scripts wait for the first one. With `--log-format json` the banner is one JSON object on its
/// own line, shaped like the log lines (`time`, `level`, `label`, `message`), with the rest as
/// fields, so every line the process writes is one JSON object.
struct StartBanner {
    var message: String
    /// The lines under the first, in text form.
    var details: [String] = []
    /// The same facts as JSON fields, in JSON form.
    var fields: [String: Any] = [:]

    func write(format: LogFormat) {
        let text: String
        switch format {
        case .text:
            text = ([message] + details).joined(separator: "\n") + "\n"
        case .json:
            var object = fields
            object["time"] = JSONLogHandler.timestamp()
            object["level"] = "notice"
            object["label"] = "openstore"
            object["message"] = message
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
            text = String(decoding: data, as: UTF8.self) + "\n"
        }
        // Written unbuffered so scripts waiting for the line see it at once.
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
