/// Isolates catalog text inside our own sentences, so a right-to-left name (or a stray U+202E
/// override in one) can't reorder the words around it.
public enum Bidi {
    /// The text between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for plain-text contexts
    /// such as notices; in markup, views use `<bdi>`.
    public static func isolate(_ text: String) -> String {
        "\u{2068}\(text)\u{2069}"
    }
}
