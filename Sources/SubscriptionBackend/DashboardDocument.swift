import Crypto
import Foundation
import StoreShared
import Hummingbird
import NIOCore

/// A dashboard page as a complete HTML document: the store's escaping writer (`HTMLWriter`, so
/// every value from signed data or a customer is text, never markup), one inline stylesheet
/// allowed by its hash, no script and nothing fetched, so the page works the same with
/// JavaScript off and makes no request of its own.
enum DashboardDocument {
    enum Section: String, CaseIterable {
        case overview, charts, customers, paywalls

        var title: String {
            switch self { case .overview: "Overview"; case .charts: "Charts"; case .customers: "Customers"; case .paywalls: "Paywalls" }
        }
        var path: String {
            switch self { case .overview: "/"; case .charts: "/charts"; case .customers: "/customers"; case .paywalls: "/paywalls" }
        }
    }

    static func page(_ title: String, section: Section?, signOut: Bool, status: HTTPResponse.Status = .ok,
                     _ body: (HTMLWriter) -> Void) -> Response {
        let html = HTMLWriter(capacity: 32_768)
        html.trusted("<!DOCTYPE html>")
        html.open("html", [("lang", "en")])
        html.trusted("<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.trusted("<meta name=\"color-scheme\" content=\"light dark\"><meta name=\"referrer\" content=\"no-referrer\">")
        html.element("title", text: "\(title) · OpenStoreKit subscription backend")
        html.trusted("<style>\(css)</style></head>")
        html.open("body")
        html.element("a", [("class", "bd-skip"), ("href", "#main")], text: "Skip to content")
        html.element("header", [("class", "bd-header")]) {
            html.element("nav", [("aria-label", "Dashboard")]) {
                html.element("span", [("class", "bd-brand")], text: "Subscription backend")
                html.element("ul") {
                    for item in Section.allCases {
                        html.element("li") {
                            html.element("a", [("href", item.path), ("aria-current", item == section ? "page" : nil)], text: item.title)
                        }
                    }
                }
                if signOut {
                    html.element("form", [("method", "post"), ("action", "/logout"), ("class", "bd-signout")]) {
                        html.element("button", [("type", "submit")], text: "Sign out")
                    }
                }
            }
        }
        html.element("main", [("id", "main"), ("tabindex", "-1")]) { body(html) }
        html.close("body")
        html.close("html")
        return response(html.output, status: status)
    }

    static func response(_ html: String, status: HTTPResponse.Status = .ok, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .contentSecurityPolicy: contentSecurityPolicy, .cacheControl: "no-store",
            .init("X-Content-Type-Options")!: "nosniff", .init("X-Frame-Options")!: "DENY", .init("Referrer-Policy")!: "no-referrer",
        ]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Nothing may load or run but the page's own stylesheet (by its hash) and forms to itself.
    static let contentSecurityPolicy: String = {
        let hash = Data(SHA256.hash(data: Data(css.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'sha256-\(hash)'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }()

    /// `ms` as `2026-11-25 21:40 UTC`.
    static func time(_ ms: Int64?) -> String {
        guard let ms else { return "—" }
        let dayStart = OverviewRules.dayStart(ms)
        let minutes = (ms - dayStart) / 60_000
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(OverviewRules.date(ms)) \(two(minutes / 60)):\(two(minutes % 60)) UTC"
    }

    /// A price in milliunits as `4.99 USD`.
    static func money(_ milliunits: Int64?, _ currency: String?) -> String {
        guard let milliunits else { return "—" }
        return "\(String(format: "%.2f", Double(milliunits) / 1000)) \(currency ?? "")".trimmingCharacters(in: .whitespaces)
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func pathSegment(_ text: String) -> String { PercentEncoding.unreserved(text) }

    static func customerURL(_ appUserId: String) -> String { "/customers/" + pathSegment(appUserId) }

    static let css = """
    :root{color-scheme:light dark;--on-accent:#fff;--bg:#fff;--fg:#1d1d1f;--muted:#5f5f66;--line:#d2d2d7;--card:#f5f5f7;--accent:#0a5fd6;--green:#1b7f3b;--orange:#b25e00;--red:#c4281c;--gray:#76767c}
    @media (prefers-color-scheme:dark){:root{--on-accent:#111114;--bg:#111114;--fg:#f2f2f7;--muted:#b4b4bb;--line:#3a3a3f;--card:#1c1c21;--accent:#5aa2ff;--green:#4cc06e;--orange:#f0a040;--red:#ff6b5e;--gray:#9a9aa1}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
    a{color:var(--accent)}
    :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
    .bd-skip{position:absolute;left:-999px;top:.5rem;background:var(--bg);padding:.5rem;z-index:2}
    .bd-skip:focus{left:.5rem}
    .bd-header{border-bottom:1px solid var(--line);background:var(--card)}
    .bd-header nav{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;max-width:72rem;margin:0 auto;padding:.6rem 1rem}
    .bd-brand{font-weight:700}
    .bd-header ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
    .bd-header a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
    .bd-signout{margin-inline-start:auto}
    main{display:block;max-width:72rem;margin:0 auto;padding:1rem}
    h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:.25rem 0}
    .bd-muted{color:var(--muted)}
    .bd-figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.75rem;margin:1rem 0;padding:0}
    .bd-figures>div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem}
    .bd-figures dt{font-size:.875rem;color:var(--muted)}
    .bd-figures dd{margin:.2rem 0 0;font-size:1.35rem;font-weight:650;overflow-wrap:anywhere}
    .bd-figures dd small{display:block;font-size:.8rem;font-weight:400;color:var(--muted)}
    form.bd-inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0}
    label{display:block;font-size:.875rem;font-weight:600}
    input,select,button{font:inherit;padding:.4rem .6rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);min-height:2.5rem}
    button{background:var(--accent);color:var(--on-accent);border-color:var(--accent);cursor:pointer}
    .bd-signout button{background:transparent;color:var(--accent)}
    .bd-card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem;margin:.75rem 0}
    .bd-scroll,.mg-scroll{overflow-x:auto}
    table{border-collapse:collapse;width:100%;font-size:.9375rem}
    th,td{text-align:start;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
    thead th{font-size:.8125rem;color:var(--muted);font-weight:600}
    tbody th{font-weight:600;max-width:24rem}
    input[type=search]{width:min(28rem,80vw)}
    .bd-timeline{list-style:none;margin:0;padding:0;border-inline-start:3px solid var(--line)}
    .bd-timeline li{position:relative;margin:0 0 .75rem;padding-inline-start:1rem}
    .bd-timeline li::before{content:"";position:absolute;left:-.45rem;top:.45rem;width:.6rem;height:.6rem;border-radius:50%;background:var(--accent)}
    .bd-event{font-weight:700}
    .bd-error{color:var(--red);font-weight:600}
    .mg-figure{margin:0}
    .mg-chart{display:block;width:100%;height:auto;max-width:100%}
    .mg-chart text{fill:var(--fg);font:11px system-ui,sans-serif}
    .mg-axis{stroke:var(--muted);stroke-width:1}
    .mg-bar-a{fill:var(--accent)}.mg-bar-b{fill:var(--green)}.mg-bar-grace{fill:var(--orange)}.mg-bar-expired{fill:var(--gray)}.mg-bar-fail{fill:var(--red)}
    .mg-legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.8125rem;list-style:none;padding:0;margin:.25rem 0}
    .mg-swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:3px;margin-inline-end:.3rem;vertical-align:-.1rem}
    details.mg-details>summary,details.bd-details>summary{cursor:pointer;font-weight:600;min-height:2rem}
    .bd-chart-list{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(18rem,1fr));gap:.75rem}
    .bd-chart-list li{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem}
    .bd-chart-list p{margin:.25rem 0 0;font-size:.875rem;color:var(--muted)}
    td.bd-num{text-align:end;font-variant-numeric:tabular-nums}
    .sk-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
    """
}
