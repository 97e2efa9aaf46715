import Foundation
import Hummingbird

/// `/openapi.json`: the contract of every route we add to Apple's (device API, admin API).
enum OpenAPIDocument {
    /// Compiled in (Plugins/EmbedResources), so the binary needs no bundle beside it.
    static let data: Data? = EmbeddedResources.data(named: "openapi.json")

    static func response() throws -> Response {
        guard let data else { throw RequestError(status: 404, code: "notFound", message: "openapi.json is not bundled with this build") }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
