/// The page being written. Every text and attribute value goes through escaping, so product
/// names from a catalog can never become markup. Bytes are appended to one UTF-8 buffer: a page
/// is thousands of small appends, and a byte buffer does them without String's bookkeeping.
public final class HTMLWriter {
    private var bytes: [UInt8]

    /// Reserves `capacity` bytes up front so a typical page is written without the buffer regrowing.
    public init(capacity: Int = 16_384) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The HTML written so far.
    public var output: String { String(decoding: bytes, as: UTF8.self) }

    /// `<tag a="v" …>`; attributes with a nil value are left out, `""` writes a bare attribute.
    public func open(_ tag: String, _ attributes: [(String, String?)] = []) {
        bytes.append(0x3C)  // <
        bytes.append(contentsOf: tag.utf8)
        for (name, value) in attributes {
            guard let value else { continue }
            bytes.append(0x20)
            bytes.append(contentsOf: name.utf8)
            if !value.isEmpty {
                bytes.append(0x3D)  // =
                bytes.append(0x22)  // "
                appendEscaped(value, attribute: true)
                bytes.append(0x22)
            }
        }
        bytes.append(0x3E)  // >
    }

    /// `</tag>`. The writer keeps no stack of open tags: every `open` needs its own `close`.
    public func close(_ tag: String) {
        bytes.append(0x3C)
        bytes.append(0x2F)  // /
        bytes.append(contentsOf: tag.utf8)
        bytes.append(0x3E)
    }

    /// An element with text only.
    public func element(_ tag: String, _ attributes: [(String, String?)] = [], text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    /// An element whose children `content` writes; opened and closed around it, so nesting stays balanced.
    public func element(_ tag: String, _ attributes: [(String, String?)] = [], _ content: () -> Void) {
        open(tag, attributes)
        content()
        close(tag)
    }

    /// `<tag class>` holding `visual` for the eye (hidden from screen readers) and `spoken` for
    /// assistive technology (visually hidden): "$49.99/yr" read as "$49.99 per year".
    public func speakable(_ tag: String, class className: String?, visual: String, spoken: String) {
        open(tag, [("class", className)])
        element("span", [("aria-hidden", "true")], text: visual)
        element("span", [("class", "sk-visually-hidden")], text: spoken)
        close(tag)
    }

    /// Text content, escaped, so catalog and user strings can never become markup.
    public func text(_ text: String) {
        appendEscaped(text, attribute: false)
    }

    /// Markup we wrote ourselves (the stylesheet, the script). Never pass catalog or user text.
    public func trusted(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// What another writer wrote (a part rendered ahead of its place on the page).
    public func append(_ other: HTMLWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Escapes `&`, `<`, `>` and, in attributes, both quote marks. All five are ASCII, so they are
    /// found byte by byte without decoding characters.
    private func appendEscaped(_ text: String, attribute: Bool) {
        let utf8 = text.utf8
        let written: Void? = utf8.withContiguousStorageIfAvailable { buffer in
            var start = 0
            for index in 0..<buffer.count {
                guard let entity = Self.entity(buffer[index], attribute: attribute) else { continue }
                self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
                self.bytes.append(contentsOf: entity.utf8)
                start = index + 1
            }
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
        }
        if written == nil {
            for byte in utf8 {
                if let entity = Self.entity(byte, attribute: attribute) { bytes.append(contentsOf: entity.utf8) } else { bytes.append(byte) }
            }
        }
    }

    private static func entity(_ byte: UInt8, attribute: Bool) -> String? {
        switch byte {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x22 where attribute: "&quot;"
        case 0x27 where attribute: "&#39;"
        default: nil
        }
    }

    /// `text` escaped for an element (`attribute: false`) or a quoted attribute value.
    public static func escape(_ text: String, attribute: Bool) -> String {
        let writer = HTMLWriter(capacity: text.utf8.count + 16)
        writer.appendEscaped(text, attribute: attribute)
        return writer.output
    }
}
