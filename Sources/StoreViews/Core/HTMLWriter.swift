/// The page being written. Every text and attribute value goes through `escape`, so product
/// names from a catalog can never become markup.
public final class HTMLWriter {
    public private(set) var output: String

    public init(capacity: Int = 16_384) {
        output = ""
        output.reserveCapacity(capacity)
    }

    /// `<tag a="v" …>`; attributes with a nil value are left out, `""` writes a bare attribute.
    public func open(_ tag: String, _ attributes: [(String, String?)] = []) {
        output += "<"
        output += tag
        for (name, value) in attributes {
            guard let value else { continue }
            output += " "
            output += name
            if !value.isEmpty {
                output += "=\""
                output += Self.escape(value, attribute: true)
                output += "\""
            }
        }
        output += ">"
    }

    public func close(_ tag: String) {
        output += "</"
        output += tag
        output += ">"
    }

    /// An element with text only.
    public func element(_ tag: String, _ attributes: [(String, String?)] = [], text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    public func element(_ tag: String, _ attributes: [(String, String?)] = [], _ content: () -> Void) {
        open(tag, attributes)
        content()
        close(tag)
    }

    public func text(_ text: String) {
        output += Self.escape(text, attribute: false)
    }

    /// Markup we wrote ourselves (the stylesheet, the script). Never pass catalog or user text.
    public func trusted(_ markup: String) {
        output += markup
    }

    /// Escapes `&`, `<`, `>` and, in attributes, both quote marks.
    public static func escape(_ text: String, attribute: Bool) -> String {
        var needs = false
        for byte in text.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            needs = true
            break
        }
        guard needs else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += attribute ? "&quot;" : "\""
            case "'": result += attribute ? "&#39;" : "'"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
