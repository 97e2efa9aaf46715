import StoreViews
import StoreShared

/// The dashboard's forms. Every action is a POST to `/manage/actions` naming its `action`, the
/// world and the page to come back to (Post/Redirect/Get); destructive ones ask for
/// confirmation first. Every control has an accessible name.
enum ManageForm {
    enum Kind { case normal, destructive, secondary }

    /// A one-button form. `name` is what a screen reader hears, with the thing it acts on.
    static func button(_ html: HTMLWriter, _ action: String, _ label: String, name: String? = nil, query: ManageQuery, back: String,
                       fields: [(String, String)] = [], kind: Kind = .normal) {
        open(html, action, query: query, back: back, fields: fields, inline: true)
        submit(html, label, name: name, kind: kind)
        html.close("form")
    }

    /// Opens a form (close it with `html.close("form")`).
    static func open(_ html: HTMLWriter, _ action: String, query: ManageQuery, back: String, fields: [(String, String)] = [],
                     inline: Bool = false, label: String? = nil) {
        html.open("form", [("method", "post"), ("action", "/manage/actions"), ("class", inline ? "sk-action-form mg-inline" : "mg-form"),
                           ("data-sk-native", "1"), ("aria-label", label)])
        hidden(html, "action", action)
        hidden(html, "world", query.world)
        hidden(html, "back", back)
        for (name, value) in fields { hidden(html, name, value) }
    }

    static func hidden(_ html: HTMLWriter, _ name: String, _ value: String) {
        html.open("input", [("type", "hidden"), ("name", name), ("value", value)])
    }

    static func submit(_ html: HTMLWriter, _ label: String, name: String? = nil, kind: Kind = .normal) {
        let style = switch kind {
        case .normal: "sk-button mg-button"
        case .destructive: "sk-button mg-button mg-destructive"
        case .secondary: "sk-button mg-button sk-button-cancel"
        }
        html.element("button", [("type", "submit"), ("class", style), ("aria-label", name)], text: label)
    }

    /// A labelled text field.
    static func field(_ html: HTMLWriter, _ name: String, label: String, value: String = "", id: String, placeholder: String? = nil,
                      required: Bool = false, type: String = "text", list: String? = nil, maxLength: Int = 200) {
        html.element("span", [("class", "mg-field")]) {
            html.element("label", [("for", id)], text: label)
            html.open("input", [("id", id), ("name", name), ("type", type), ("value", value), ("placeholder", placeholder),
                                ("required", required ? "" : nil), ("list", list), ("maxlength", String(maxLength)),
                                ("autocomplete", "off"), ("spellcheck", "false")])
        }
    }

    /// A labelled select; `options` are (value, title).
    static func select(_ html: HTMLWriter, _ name: String, label: String, id: String, options: [(String, String)], selected: String?) {
        html.element("span", [("class", "mg-field")]) {
            html.element("label", [("for", id)], text: label)
            html.element("select", [("id", id), ("name", name)]) {
                for (value, title) in options {
                    html.element("option", [("value", value), ("selected", value == selected ? "" : nil)], text: title)
                }
            }
        }
    }
}
