import Foundation
import StoreModel
import StoreStorage

/// The Retention Messaging API (`/inApps/v1/messaging/…`) as Apple's `AppStoreServerAPIClient`
/// calls it: images, messages, default messages per product and locale, and the realtime URL,
/// each per app (the key's bundle ID) and world. Apple reviews images and messages; here they are
/// approved at once, so a test can use them straight away. Limits and codes are Apple's
/// (reference §1.3, §3.2); the performance test is in `AppStore+RetentionPerformanceTest.swift`.
extension AppStore {
    static let imageKind = "retention_image", messageKind = "retention_message"
    static let defaultKind = "retention_default", realtimeKind = "retention_realtime_url"

    /// One uploaded image, as Get Image List lists it (`GetImageListResponseItem`).
    public struct RetentionImage: Codable, Sendable, Equatable {
        /// The image's UUID, in lowercase.
        public var imageIdentifier: String
        /// Apple's `imageState`; always `APPROVED` here, since nothing is reviewed.
        public var imageState: String
        /// `FULL_SIZE` for a message image or `BULLET_POINT` for a bullet point icon.
        public var imageSize: String
    }

    /// One uploaded message, as Get Message List lists it (`GetMessageListResponseItem`).
    public struct RetentionMessage: Codable, Sendable, Equatable {
        /// The message's UUID, in lowercase.
        public var messageIdentifier: String
        /// Apple's `messageState`; always `APPROVED` here.
        public var messageState: String
    }

    /// Get Image List's `GetImageListResponse`: the app's images in this world.
    public struct ImageList: Codable, Sendable, Equatable { public var imageIdentifiers: [RetentionImage] }
    /// Get Message List's `GetMessageListResponse`: the app's messages in this world.
    public struct MessageList: Codable, Sendable, Equatable { public var messageIdentifiers: [RetentionMessage] }
    /// The message shown by default for one product and locale (Configure and Get Default Message).
    public struct DefaultMessage: Codable, Sendable, Equatable { public var messageIdentifier: String }
    /// The URL of the developer's Get Retention Message endpoint (Configure and Get Realtime URL).
    public struct RealtimeURL: Codable, Sendable, Equatable { public var realtimeURL: String }

    // MARK: Images

    /// Upload Image: stores a PNG under a new UUID, approved at once; only the PNG signature is
    /// checked, not the pixel size.
    public func uploadRetentionImage(_ identifier: String, png: Data, imageSize: String?, caller: ServerAPICaller) async throws {
        let id = try Self.retentionIdentifier(identifier)
        let size = imageSize ?? "FULL_SIZE"
        guard size == "FULL_SIZE" || size == "BULLET_POINT" else { throw ServerAPIError.badRequestImageSize }
        guard png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), png.count > 8 else { throw ServerAPIError.invalidImage }
        let key = try retentionKey(caller, id)
        guard try await database.worldRecord(world: caller.world, kind: Self.imageKind, key: key) == nil else { throw ServerAPIError.imageAlreadyExists }
        try await saveRecord(caller, kind: Self.imageKind, key: key, RetentionImage(imageIdentifier: id, imageState: "APPROVED", imageSize: size))
    }

    /// Delete Image: removes an image no message uses (else `ImageInUseError`).
    public func deleteRetentionImage(_ identifier: String, caller: ServerAPICaller) async throws {
        let id = try Self.retentionIdentifier(identifier)
        let key = try retentionKey(caller, id)
        guard try await database.worldRecord(world: caller.world, kind: Self.imageKind, key: key) != nil else { throw ServerAPIError.imageNotFound }
        if try await records(caller, kind: Self.messageKind, as: StoredMessage.self).contains(where: { $0.imageIdentifiers.contains(id) }) {
            throw ServerAPIError.imageInUse
        }
        try await database.deleteWorldRecord(world: caller.world, kind: Self.imageKind, key: key)
    }

    /// Get Image List: the caller's app's images, ordered by identifier.
    public func retentionImages(caller: ServerAPICaller) async throws -> ImageList {
        ImageList(imageIdentifiers: try await records(caller, kind: Self.imageKind, as: RetentionImage.self))
    }

    // MARK: Messages

    /// What is kept of an uploaded message: its state and the images it uses.
    struct StoredMessage: Codable, Sendable {
        var messageIdentifier: String
        var messageState: String
        var imageIdentifiers: [String]
    }

    /// Upload Message: checks an `UploadMessageRequestBody` against Apple's limits (header and bullet
    /// text 66, body 144, alt text 150 characters, 5 bullet points) and stores it approved.
    public func uploadRetentionMessage(_ identifier: String, body: Data, caller: ServerAPICaller) async throws {
        let id = try Self.retentionIdentifier(identifier)
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.generalBadRequest }
        let allowed: Set<String> = ["header", "body", "image", "headerPosition", "bulletPoints"]
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) { throw ServerAPIError.unknownParameter(unknown) }
        guard case .string(let header)? = fields["header"], !header.isEmpty else { throw ServerAPIError.generalBadRequest }
        guard header.count <= 66 else { throw ServerAPIError.headerTooLong }
        guard case .string(let text)? = fields["body"], !text.isEmpty else { throw ServerAPIError.generalBadRequest }
        guard text.count <= 144 else { throw ServerAPIError.bodyTooLong }
        var images: [String] = []
        func image(_ value: JSONValue?) throws -> String {
            guard case .object(let item)? = value, case .string(let raw)? = item["imageIdentifier"],
                  case .string(let alt)? = item["altText"] else { throw ServerAPIError.generalBadRequest }
            guard alt.count <= 150 else { throw ServerAPIError.altTextTooLong }
            return try Self.retentionIdentifier(raw)
        }
        var hasImage = false
        switch fields["image"] {
        case nil, .null?: break
        case let value?:
            images.append(try image(value))
            hasImage = true
        }
        switch fields["headerPosition"] {
        case nil, .null?, .string("ABOVE_BODY")?: break
        case .string("ABOVE_IMAGE")?: guard hasImage else { throw ServerAPIError.aboveImageRequiresAnImage }
        default: throw ServerAPIError.generalBadRequest
        }
        switch fields["bulletPoints"] {
        case nil, .null?: break
        case .array(let points)?:
            guard points.count <= 5 else { throw ServerAPIError.tooManyBulletPoints }
            for point in points {
                guard case .object(let item) = point, case .string(let pointText)? = item["text"] else { throw ServerAPIError.generalBadRequest }
                guard pointText.count <= 66 else { throw ServerAPIError.bulletPointTextTooLong }
                images.append(try image(point))
            }
        default: throw ServerAPIError.generalBadRequest
        }
        for image in images {
            guard let stored = try await database.worldRecord(world: caller.world, kind: Self.imageKind, key: try retentionKey(caller, image)),
                  let decoded = try? JSONDecoder().decode(RetentionImage.self, from: Data(stored.value.utf8))
            else { throw ServerAPIError.imageNotFound }
            guard decoded.imageState == "APPROVED" else { throw ServerAPIError.imageNotApproved }
        }
        let key = try retentionKey(caller, id)
        guard try await database.worldRecord(world: caller.world, kind: Self.messageKind, key: key) == nil else { throw ServerAPIError.messageAlreadyExists }
        try await saveRecord(caller, kind: Self.messageKind, key: key, StoredMessage(messageIdentifier: id, messageState: "APPROVED", imageIdentifiers: images))
    }

    /// Delete Message: removes an uploaded message.
    public func deleteRetentionMessage(_ identifier: String, caller: ServerAPICaller) async throws {
        let id = try Self.retentionIdentifier(identifier)
        let key = try retentionKey(caller, id)
        guard try await database.worldRecord(world: caller.world, kind: Self.messageKind, key: key) != nil else { throw ServerAPIError.messageNotFound }
        try await database.deleteWorldRecord(world: caller.world, kind: Self.messageKind, key: key)
    }

    /// Get Message List: the caller's app's messages, ordered by identifier.
    public func retentionMessages(caller: ServerAPICaller) async throws -> MessageList {
        MessageList(messageIdentifiers: try await records(caller, kind: Self.messageKind, as: StoredMessage.self).map {
            RetentionMessage(messageIdentifier: $0.messageIdentifier, messageState: $0.messageState)
        })
    }

    // MARK: Default messages

    /// Configure Default Message: the approved message to show for an auto-renewable subscription and
    /// locale when no realtime answer picks one.
    public func configureDefaultMessage(productId: String, locale: String, body: Data, caller: ServerAPICaller) async throws {
        let key = try defaultKey(caller, productId: productId, locale: locale)
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.generalBadRequest }
        if let unknown = fields.keys.sorted().first(where: { $0 != "messageIdentifier" }) { throw ServerAPIError.unknownParameter(unknown) }
        guard case .string(let raw)? = fields["messageIdentifier"] else { throw ServerAPIError.generalBadRequest }
        let id = try Self.retentionIdentifier(raw)
        guard let stored = try await database.worldRecord(world: caller.world, kind: Self.messageKind, key: try retentionKey(caller, id)),
              let message = try? JSONDecoder().decode(StoredMessage.self, from: Data(stored.value.utf8))
        else { throw ServerAPIError.messageNotFound }
        guard message.messageState == "APPROVED" else { throw ServerAPIError.messageNotApproved }
        try await saveRecord(caller, kind: Self.defaultKind, key: key, DefaultMessage(messageIdentifier: id))
    }

    /// Get Default Message: the message configured for the product and locale.
    public func defaultMessage(productId: String, locale: String, caller: ServerAPICaller) async throws -> DefaultMessage {
        let key = try defaultKey(caller, productId: productId, locale: locale)
        guard let stored = try await database.worldRecord(world: caller.world, kind: Self.defaultKind, key: key),
              let message = try? JSONDecoder().decode(DefaultMessage.self, from: Data(stored.value.utf8))
        else { throw ServerAPIError.defaultMessageNotFound }
        return message
    }

    /// Delete Default Message: removes the product and locale's default.
    public func deleteDefaultMessage(productId: String, locale: String, caller: ServerAPICaller) async throws {
        let key = try defaultKey(caller, productId: productId, locale: locale)
        guard try await database.worldRecord(world: caller.world, kind: Self.defaultKind, key: key) != nil else { throw ServerAPIError.defaultMessageNotFound }
        try await database.deleteWorldRecord(world: caller.world, kind: Self.defaultKind, key: key)
    }

    // MARK: Realtime URL

    /// Apple wants an HTTPS URL of at most 256 characters; plain HTTP is accepted for loopback
    /// hosts only, where a developer's local server runs.
    public func configureRealtimeURL(body: Data, caller: ServerAPICaller) async throws {
        let app = try serverAPIApp(caller)
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.generalBadRequest }
        if let unknown = fields.keys.sorted().first(where: { $0 != "realtimeURL" }) { throw ServerAPIError.unknownParameter(unknown) }
        guard case .string(let text)? = fields["realtimeURL"], text.count <= 256, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              scheme == "https" || (scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()))
        else { throw ServerAPIError.badRequestRealtimeURL }
        try await saveRecord(caller, kind: Self.realtimeKind, key: app.bundleId, RealtimeURL(realtimeURL: text))
    }

    /// Get Realtime URL: the configured URL, or `RealtimeUrlNotFoundError`.
    public func realtimeURL(caller: ServerAPICaller) async throws -> RealtimeURL {
        let app = try serverAPIApp(caller)
        guard let stored = try await database.worldRecord(world: caller.world, kind: Self.realtimeKind, key: app.bundleId),
              let url = try? JSONDecoder().decode(RealtimeURL.self, from: Data(stored.value.utf8))
        else { throw ServerAPIError.realtimeURLNotFound }
        return url
    }

    /// Delete Realtime URL: removes the configured URL, or fails with `RealtimeUrlNotFoundError`.
    public func deleteRealtimeURL(caller: ServerAPICaller) async throws {
        let app = try serverAPIApp(caller)
        guard try await database.worldRecord(world: caller.world, kind: Self.realtimeKind, key: app.bundleId) != nil else {
            throw ServerAPIError.realtimeURLNotFound
        }
        try await database.deleteWorldRecord(world: caller.world, kind: Self.realtimeKind, key: app.bundleId)
    }

    // MARK: Helpers

    /// Image and message identifiers are UUIDs; Swift's client sends them uppercase, Python's lowercase.
    static func retentionIdentifier(_ text: String) throws(ServerAPIError) -> String {
        guard let uuid = UUID(uuidString: text) else { throw ServerAPIError.generalBadRequest }
        return uuid.uuidString.lowercased()
    }

    func retentionKey(_ caller: ServerAPICaller, _ id: String) throws(ServerAPIError) -> String {
        try serverAPIApp(caller).bundleId + "\u{1F}" + id
    }

    /// A default message belongs to one of the app's auto-renewable subscriptions and a locale
    /// such as `en-US` (or `en_US`).
    func defaultKey(_ caller: ServerAPICaller, productId: String, locale: String) throws(ServerAPIError) -> String {
        let app = try serverAPIApp(caller)
        guard app.catalog.product(productId)?.kind == .autoRenewable else { throw ServerAPIError.invalidProductId }
        let parts = locale.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }),
              parts[0].count >= 2, parts[0].count <= 3, parts[0].allSatisfy(\.isLetter)
        else { throw ServerAPIError.invalidLocale }
        return app.bundleId + "\u{1F}" + productId + "\u{1F}" + parts.joined(separator: "-").lowercased()
    }

    func saveRecord<T: Encodable>(_ caller: ServerAPICaller, kind: String, key: String, _ value: T) async throws {
        let world = try await loadedWorld(caller.world)
        var batch = WriteBatch()
        batch.worldRecords.append(WorldRecord(world: caller.world, kind: kind, key: key,
                                              value: String(decoding: try JSONEncoder().encode(value), as: UTF8.self)))
        try await world.commit(batch)
    }

    func records<T: Decodable>(_ caller: ServerAPICaller, kind: String, as type: T.Type) async throws -> [T] {
        let prefix = try serverAPIApp(caller).bundleId + "\u{1F}"
        return try await database.worldRecords(world: caller.world, kind: kind)
            .filter { $0.key.hasPrefix(prefix) }
            .sorted { $0.key < $1.key }
            .compactMap { try? JSONDecoder().decode(T.self, from: Data($0.value.utf8)) }
    }
}

extension ServerAPIError {
    // Retention Messaging codes (Apple's `APIError`).
    static let invalidImage = ServerAPIError(code: 4_000_161, message: "Invalid request. The image is not a valid PNG.")
    static let headerTooLong = ServerAPIError(code: 4_000_162, message: "Invalid request. The header is longer than 66 characters.")
    static let bodyTooLong = ServerAPIError(code: 4_000_163, message: "Invalid request. The body is longer than 144 characters.")
    static let invalidLocale = ServerAPIError(code: 4_000_164, message: "Invalid request. The locale is invalid.")
    static let altTextTooLong = ServerAPIError(code: 4_000_175, message: "Invalid request. The alt text is longer than 150 characters.")
    static let badRequestRealtimeURL = ServerAPIError(code: 4_000_215, message: "Invalid request. The realtime URL must be an HTTPS URL of at most 256 characters.")
    static let badRequestImageSize = ServerAPIError(code: 4_000_216, message: "Invalid request. The image size is invalid.")
    static let tooManyBulletPoints = ServerAPIError(code: 4_000_218, message: "Invalid request. A message has at most 5 bullet points.")
    static let bulletPointTextTooLong = ServerAPIError(code: 4_000_219, message: "Invalid request. A bullet point's text is longer than 66 characters.")
    static let aboveImageRequiresAnImage = ServerAPIError(code: 4_000_224, message: "Invalid request. The ABOVE_IMAGE header position requires an image.")
    static let messageNotApproved = ServerAPIError(code: 4_030_017, message: "The message is not approved.")
    static let imageNotApproved = ServerAPIError(code: 4_030_018, message: "The image is not approved.")
    static let imageInUse = ServerAPIError(code: 4_030_019, message: "The image is in use by a message.")
    static let imageNotFound = ServerAPIError(code: 4_040_014, message: "Image not found.")
    static let messageNotFound = ServerAPIError(code: 4_040_015, message: "Message not found.")
    static let defaultMessageNotFound = ServerAPIError(code: 4_040_020, message: "Default message not found.")
    static let realtimeURLNotFound = ServerAPIError(code: 4_040_021, message: "Realtime URL not found.")
    static let imageAlreadyExists = ServerAPIError(code: 4_090_000, message: "The image already exists.")
    static let messageAlreadyExists = ServerAPIError(code: 4_090_001, message: "The message already exists.")
}
