import StoreShared
/// Renders a store page to a complete HTML document with its stylesheet and script inline, so the
/// page makes no requests of its own.
public enum PageRenderer {
    /// The page's color scheme: follow the device (`automatic`), or force `light` or `dark`.
    public enum ColorScheme: String, Sendable { case automatic, light, dark }

    /// A message shown at the top of the page after an action (a purchase, a redeemed code).
    public struct Notice: Sendable {
        /// The message, shown as given.
        public let text: String
        /// True for a failure, shown as an alert in the error style.
        public let isError: Bool
        /// A notice with its text, a success unless `isError`.
        public init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }

    /// How to render a page: its title, language, color scheme, actions URL and what surrounds the store.
    public struct Options {
        /// The document's `<title>`.
        public var title: String
        /// The document's `lang`, which screen readers use to choose a voice.
        public var language: String
        /// Forces light or dark, or leaves it to the device.
        public var colorScheme: ColorScheme
        /// Where the page's forms post their actions.
        public var actionURL: String
        /// Draw the store's data, or StoreKit's loading placeholders.
        public var phase: RenderPhase
        /// A notice to show above the page, e.g. the outcome of the last action.
        public var notice: Notice?
        /// Page chrome above the store: the demo pages put their customer picker here.
        public var header: AnyView?
        /// Whether the store is shown as a sheet, which shows the automatic Close button.
        public var isPresented: Bool

        /// Options for a plain store page: "Store", English, the device's color scheme, loaded data.
        public init(title: String = "Store", language: String = "en", colorScheme: ColorScheme = .automatic, actionURL: String = "actions",
                    phase: RenderPhase = .loaded, notice: Notice? = nil, header: AnyView? = nil, isPresented: Bool = false) {
            self.title = title
            self.language = language
            self.colorScheme = colorScheme
            self.actionURL = actionURL
            self.phase = phase
            self.notice = notice
            self.header = header
            self.isPresented = isPresented
        }
    }

    /// A rendered page: the HTML to send and the session that resolves its posted actions.
    public struct Rendered {
        /// The complete HTML document.
        public let html: String
        /// What the page's buttons do; the server resolves a posted form against it.
        public let session: RenderSession
    }

    /// Renders `page`. When a store task lifts state into `@State`, the page renders a second
    /// time with it, as SwiftUI re-renders after a state change.
    public static func render<Page: View>(_ page: Page, store: StoreSnapshot, options: Options = Options()) -> Rendered {
        let session = RenderSession(store: store, phase: options.phase, actionURL: options.actionURL)
        var environment = EnvironmentValues()
        environment.isPresented = options.isPresented
        environment.dismiss = DismissAction { session.requestDismiss() }
        let context = RenderContext(environment: environment, session: session)
        var body = pass(page, context)
        if session.stateChanged { body = pass(page, context) }
        let document = HTMLWriter(capacity: body.utf8.count + Stylesheet.css.utf8.count + PageScript.js.utf8.count + 1024)
        document.trusted("<!DOCTYPE html>")
        document.open("html", [("lang", options.language), ("data-color-scheme", options.colorScheme == .automatic ? nil : options.colorScheme.rawValue)])
        document.trusted("<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        document.trusted("<meta name=\"color-scheme\" content=\"\(options.colorScheme == .automatic ? "light dark" : options.colorScheme.rawValue)\">")
        document.trusted("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'\">")
        document.element("title", text: options.title)
        document.trusted("<style>\(Stylesheet.css)</style></head><body>")
        if let header = options.header {
            document.open("header", [("class", "sk-page-header")])
            header._render(context, document)
            document.close("header")
        }
        document.open("main", [("class", "sk-page"), ("id", "sk-main")])
        document.open("div", [("class", "sk-notice-region"), ("role", "status"), ("aria-live", "polite")])
        if let notice = options.notice {
            document.element("p", [("class", notice.isError ? "sk-notice sk-notice-error" : "sk-notice"), ("role", notice.isError ? "alert" : nil)],
                             text: notice.text)
        }
        document.close("div")
        document.trusted(body)
        document.close("main")
        document.trusted("<script>\(PageScript.js)</script></body></html>")
        return Rendered(html: document.output, session: session)
    }

    /// Renders a view's HTML alone, without the document around it (tests, previews, embedding).
    public static func fragment<V: View>(_ view: V, store: StoreSnapshot, phase: RenderPhase = .loaded,
                                         environment: EnvironmentValues = EnvironmentValues()) -> String {
        let session = RenderSession(store: store, phase: phase)
        let context = RenderContext(environment: environment, session: session)
        let html = pass(view, context)
        return session.stateChanged ? pass(view, context) : html
    }

    static func pass<Page: View>(_ page: Page, _ context: RenderContext) -> String {
        context.session.beginPass()
        let html = HTMLWriter()
        RenderPass.$current.withValue(context.session) {
            page._render(context, html)
        }
        return html.output
    }
}
