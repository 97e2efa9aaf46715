import Hummingbird
import NIOCore
import StoreViews

/// HTML answers of the store pages. Pages are never cached (they show live entitlements) and
/// may not be framed by other sites, so a purchase button can't be clicked through a disguise.
enum HTMLResponse {
    /// The status a page answers a refusal with. A form a page posted is always a readable form;
    /// what the store refuses in it (a field its action needs, a value out of range) is 422, as
    /// openapi.json documents for the form posts, where 400 would say the form itself is broken.
    static func refusalStatus(_ code: Int, for request: Request) -> HTTPResponse.Status {
        HTTPResponse.Status(code: request.method == .post && code == 400 ? 422 : code)
    }

    static let resultHeader = HTTPFields.Element.Name("X-OpenStore-Result")!

    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: headers(contentType: "text/html; charset=utf-8"), body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Post/Redirect/Get: `303 See Other` to the page that shows the outcome.
    static func seeOther(_ location: String, result: String? = nil) -> Response {
        var response = Response(status: .seeOther, headers: headers(contentType: nil))
        response.headers[.location] = location
        if let result { response.headers[resultHeader] = result }
        return response
    }

    /// One of the store's own plain pages (index, terms, an error) as a complete document.
    static func info(_ title: String, _ blocks: [InfoPageView.Block], query: StorePageQuery, header: AnyView? = nil,
                     status: HTTPResponse.Status = .ok) -> Response {
        let rendered = PageRenderer.render(
            InfoPageView(title: title, blocks: blocks), store: StoreSnapshot(products: []),
            options: .init(title: title, colorScheme: query.scheme, notice: query.notice, header: header))
        return page(rendered.html, status: status)
    }

    /// A refusal as a page a person can read, with the way back.
    static func error(_ status: HTTPResponse.Status, _ message: String, query: StorePageQuery) -> Response {
        var plain = query
        plain.notice = nil
        return info(title(status), [.paragraph(message), .links([.init(title: "All stores", url: query.indexURL(), summary: "")])],
                    query: plain, status: status)
    }

    /// A heading for an error page (a status made from a bare code has no reason phrase).
    static func title(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 500: "Internal Server Error"
        default: status.reasonPhrase.isEmpty ? "Error \(status.code)" : status.reasonPhrase
        }
    }

    static func headers(contentType: String?) -> HTTPFields {
        var fields: HTTPFields = [.cacheControl: "no-store", .init("X-Content-Type-Options")!: "nosniff",
                                  .init("X-Frame-Options")!: "DENY", .contentSecurityPolicy: "frame-ancestors 'none'"]
        if let contentType { fields[.contentType] = contentType }
        return fields
    }
}
