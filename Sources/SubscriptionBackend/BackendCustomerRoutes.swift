import Foundation
import Hummingbird
import NIOCore
import StoreShared

/// The identity routes of `/v1/customers/{appUserId}`: log in (`alias`), deletion, subscriber
/// attributes and granted entitlements. No rules here: each maps onto `SubscriptionBackend+Identity`.
enum BackendCustomerRoutes {
    static func register(on v1: RouterGroup<BasicRequestContext>, backend: SubscriptionBackend) {
        v1.post("/customers/:appUserId/alias") { request, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            struct Body: Decodable { var newAppUserId: String }
            guard let body: Body = await decode(request),
                  let newId = Optional(body.newAppUserId), valid(newId) else {
                return BackendHTTPServer.error(400, "malformed", "expected {\"newAppUserId\": \"<1–256 characters without control characters>\"}")
            }
            do {
                return try BackendHTTPServer.encoded(try await backend.logIn(appUserId: user, newAppUserId: newId))
            } catch let error as AliasConflict {
                return BackendHTTPServer.error(409, "aliasConflict", error.description)
            } catch let error as BackendRequestError {
                // Well formed, refused by meaning: an anonymous or deleted ID to log in to.
                return BackendHTTPServer.error(422, "invalidRequest", error.description)
            }
        }
        v1.post("/customers/:appUserId/app-transaction") { request, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            struct Body: Decodable { var signedAppTransaction: String }
            guard let body: Body = await decode(request) else {
                return BackendHTTPServer.error(400, "malformed", "expected {\"signedAppTransaction\": \"<JWS>\"} (AppTransaction's jwsRepresentation)")
            }
            do {
                return try BackendHTTPServer.encoded(try await backend.receiveAppTransaction(appUserId: user, signedAppTransaction: body.signedAppTransaction))
            } catch let rejection as SignedDataRejection {
                return BackendHTTPServer.rejection(rejection)
            } catch let error as BackendRequestError {
                return BackendHTTPServer.error(422, "invalidRequest", error.description)
            }
        }
        v1.delete("/customers/:appUserId") { _, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            guard try await backend.deleteCustomer(appUserId: user) else {
                return BackendHTTPServer.error(404, "customerNotFound", "no customer \(user)")
            }
            return try BackendHTTPServer.encoded(["deleted": user])
        }
        v1.put("/customers/:appUserId/attributes") { request, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            struct Value: Decodable {
                var value: String?
                enum CodingKeys: String, CodingKey { case value }
                /// `value` must be there: a string sets the attribute, null removes it.
                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    guard c.contains(.value) else {
                        throw DecodingError.keyNotFound(CodingKeys.value, .init(codingPath: c.codingPath, debugDescription: "value is required"))
                    }
                    value = try c.decodeIfPresent(String.self, forKey: .value)
                }
            }
            struct Body: Decodable { var attributes: [String: Value] }
            guard let body: Body = await decode(request) else {
                return BackendHTTPServer.error(400, "malformed", "expected {\"attributes\": {\"$email\": {\"value\": \"…\"}, \"key\": {\"value\": null}}}")
            }
            do {
                return try BackendHTTPServer.encoded(try await backend.setAttributes(appUserId: user, body.attributes.mapValues(\.value)))
            } catch let error as AttributeRefusal {
                // A key or value against the document's rules is 400; the customer's state refusing it, 422.
                return BackendHTTPServer.error(error.breaksTheDocument ? 400 : 422, error.code, error.description)
            }
        }
        v1.post("/customers/:appUserId/entitlements/:entitlement/grant") { request, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            guard let entitlement = entitlement(context) else { return badEntitlement }
            struct Body: Decodable {
                var duration: PromotionalGrant.Duration?, expiresDate: Int64?, bundleId: String?
                /// Exactly one of the two keys, as openapi.json's oneOf says: a null counts as given.
                var exactlyOne: Bool
                enum CodingKeys: String, CodingKey { case duration, expiresDate, bundleId }
                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    duration = try c.decodeIfPresent(PromotionalGrant.Duration.self, forKey: .duration)
                    expiresDate = try c.decodeIfPresent(Int64.self, forKey: .expiresDate)
                    bundleId = try c.decodeIfPresent(String.self, forKey: .bundleId)
                    exactlyOne = c.contains(.duration) != c.contains(.expiresDate) && (duration != nil || expiresDate != nil)
                }
            }
            guard let body: Body = await decode(request), body.exactlyOne else {
                let durations = PromotionalGrant.Duration.allCases.map(\.rawValue).joined(separator: ", ")
                return BackendHTTPServer.error(400, "malformed", "expected {\"duration\": one of \(durations)} or {\"expiresDate\": <ms>}, and optionally \"bundleId\"")
            }
            do {
                return try BackendHTTPServer.encoded(try await backend.grantEntitlement(
                    appUserId: user, entitlement: entitlement, duration: body.duration, expiresMs: body.expiresDate, bundleId: body.bundleId))
            } catch let error as GrantRefusal {
                return error.unknownApp ? BackendHTTPServer.error(404, "appNotFound", error.description)
                    : BackendHTTPServer.error(422, "invalidGrant", error.description)
            }
        }
        v1.post("/customers/:appUserId/entitlements/:entitlement/revoke") { _, context in
            guard let user = BackendHTTPServer.appUserId(context) else { return BackendHTTPServer.badAppUserId }
            guard let entitlement = entitlement(context) else { return badEntitlement }
            guard let info = try await backend.revokeGrants(appUserId: user, entitlement: entitlement) else {
                return BackendHTTPServer.error(404, "customerNotFound", "no customer \(user)")
            }
            return try BackendHTTPServer.encoded(info)
        }
    }

    /// The JSON body as `T`, or nil when it is too large or not that shape.
    static func decode<T: Decodable>(_ request: Request) async -> T? {
        guard let body = try? await request.body.collect(upTo: BackendHTTPServer.maxBody) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// An ID as paths take them: 1–256 characters without control characters.
    static func valid(_ id: String) -> Bool {
        (1...256).contains(id.unicodeScalars.count) && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func entitlement(_ context: BasicRequestContext) -> String? {
        guard let raw = context.parameters.get("entitlement"), let name = FormEncoding.pathDecoded(raw), valid(name), name.unicodeScalars.count <= 100
        else { return nil }
        return name
    }

    static var badEntitlement: Response {
        BackendHTTPServer.error(400, "invalidEntitlement", "the path's entitlement must be 1–100 characters of percent-encoded UTF-8 without control characters")
    }
}
