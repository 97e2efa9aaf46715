import Foundation
import StoreShared

/// A button whose action runs on the server: the page posts the button's ID, the server renders
/// the page again and runs the closure registered under that ID. Works with JavaScript off.
public struct Button<Label: View>: PrimitiveView {
    let action: () -> Void
    let label: Label
    let role: ButtonRole?

    /// Mirrors SwiftUI's `Button(role:action:label:)`: `action` runs on the server when the page posts it.
    public init(role: ButtonRole? = nil, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
        self.role = role
    }

    /// A one-button POST form whose button posts this render's ID for `action`.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        let id = context.session.actions.register(action)
        ActionForm(url: context.session.actionURL, action: id, className: "sk-button" + (role == .cancel ? " sk-button-cancel" : ""))
            .render(context, html) { label._render(context, html) }
    }
}

extension Button where Label == Text {
    /// Mirrors `Button(_:role:action:)`: a button labelled with text.
    public init(_ title: String, role: ButtonRole? = nil, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(title) }
    }
}

/// Mirrors SwiftUI's `ButtonRole`; `.cancel` gets the secondary cancel look, `.destructive` looks standard.
public enum ButtonRole: Sendable { case cancel, destructive }

/// A link. Only web, relative and mail addresses are kept; anything else (`javascript:`) becomes `#`.
public struct Link<Label: View>: PrimitiveView {
    let destination: String
    let label: Label
    /// Mirrors SwiftUI's `Link(destination:label:)`; an unsafe destination becomes `#`.
    public init(destination: String, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }
    /// An `a` element with the filtered destination.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("a", [("class", "sk-link"), ("href", Self.safe(destination))])
        label._render(context, html)
        html.close("a")
    }

    static func safe(_ url: String) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:") { return trimmed }
        // Relative: no scheme, i.e. no ":" before the first "/", "?" or "#"; control characters
        // (which browsers strip, turning "java\tscript:" into a scheme) are refused.
        let head = trimmed.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if !head.contains(":"), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return trimmed }
        return "#"
    }
}

extension Link where Label == Text {
    /// Mirrors `Link(_:destination:)`: a link labelled with text.
    public init(_ title: String, destination: String) {
        self.init(destination: destination) { Text(title) }
    }
}

/// A one-button POST form: `<form><input name=action><button>`. Every store action is one of these.
struct ActionForm {
    let url: String
    let action: String
    var className = "sk-button"
    var label: String?
    var extraFields: [(String, String)] = []
    var disabled = false

    func render(_ context: RenderContext, _ html: HTMLWriter, content: () -> Void) {
        html.open("form", [("method", "post"), ("action", url), ("class", "sk-action-form")])
        for (name, value) in extraFields { html.open("input", [("type", "hidden"), ("name", name), ("value", value)]) }
        html.open("button", [("type", "submit"), ("name", "action"), ("value", action), ("class", className),
                             ("aria-label", label), ("disabled", disabled ? "" : nil)])
        content()
        html.close("button")
        html.close("form")
    }
}
