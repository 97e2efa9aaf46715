/// What `Element` refuses: tags that run or embed content, and attributes that do the same.
enum ElementPolicy {
    static let forbiddenTags: Set<String> = [
        "script", "style", "iframe", "object", "embed", "template", "base", "meta", "link", "frame", "frameset", "noscript", "svg", "math",
    ]
    static let forbiddenAttributes: Set<String> = ["srcdoc", "srcset", "style", "formaction", "xlink-href"]
    static let urlAttributes: Set<String> = ["href", "action", "cite", "poster", "data", "background"]

}
