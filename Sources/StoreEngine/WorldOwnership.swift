import Foundation
import StoreModel
import StoreStorage
import Synchronization
import StoreShared

/// How this store shares its database with other instances (`openstore serve` on PostgreSQL).
public struct InstanceSettings: Sendable {
    /// Where other instances forward requests for the worlds this one owns.
    public var advertiseURL: String
    /// How long a lease lasts without a heartbeat: a dead instance's worlds move after this.
    public var leaseMs: Int64
    /// This process, as lease rows name it.
    public var instanceId: String

    /// Ten seconds: how long a world stays with a silent instance before another takes it over.
    public static let defaultLeaseMs: Int64 = 10_000

    /// Settings for one instance; leases shorter than 300 ms are raised to 300 ms.
    public init(advertiseURL: String, leaseMs: Int64 = InstanceSettings.defaultLeaseMs, instanceId: String = UUID().uuidString.lowercased()) {
        self.advertiseURL = advertiseURL
        self.leaseMs = max(leaseMs, 300)
        self.instanceId = instanceId
    }
}

/// Which worlds this instance owns, when many instances share one PostgreSQL. A world is the unit
/// of ownership, as it is one actor in one process: its owner alone decides, writes, runs its
/// scheduler and delivers its notifications, under a lease (`StoreDatabase+Leases`) whose epoch
/// fences every write. The rest (heartbeat, take-over, hand-back) is `WorldDirectory+Leases`.
final class WorldOwnership: Sendable {
    let settings: InstanceSettings
    let database: StoreDatabase
    /// Worlds whose write found the lease taken over, with the epoch that write carried; the
    /// directory gives up the world only if it still holds that epoch (not a newer take-over).
    private let lost = Mutex<[String: Int64]>([:])
    /// The end of the identifier block in use (see `refillIfNeeded`).
    private let blockEnd = Mutex<(id: Int64, seq: Int64)>((0, 0))

    /// Transaction IDs and change numbers per block: far more than an instance uses between two
    /// heartbeats, so a block never runs out before the next one is taken.
    static let blockSize: Int64 = 100_000_000

    /// The advertised URL; known for sure only once the server has bound its port.
    private let addressBox: Mutex<String>

    init(settings: InstanceSettings, database: StoreDatabase) {
        self.settings = settings
        self.database = database
        self.addressBox = Mutex(settings.advertiseURL)
        database.leaseBook.activate()
    }

    var address: String {
        get { addressBox.withLock { $0 } }
        set { addressBox.withLock { $0 = newValue } }
    }

    var id: String { settings.instanceId }

    func markLost(_ world: String, epoch: Int64?) {
        guard let epoch else { return }
        lost.withLock { $0[world] = max($0[world] ?? epoch, epoch) }
    }
    func isLost(_ world: String) -> Bool { lost.withLock { $0[world] != nil } }
    func takeLost() -> [String: Int64] { lost.withLock { let out = $0; $0 = [:]; return out } }
    func clearLost(_ world: String) { _ = lost.withLock { $0.removeValue(forKey: world) } }

    /// Moves the counters to a new block above every block any instance took so far. Taken on each
    /// take-over: the world's next change numbers then exceed every one its last owner used, so
    /// revision tokens and `Transaction.updates` positions keep their order across owners.
    func takeBlock(_ identifiers: Identifiers) async throws {
        let marks = identifiers.current
        let start = try await database.takeIdentifierBlock(size: Self.blockSize, floor: marks)
        identifiers.moveUp(id: start.id, seq: start.seq)
        blockEnd.withLock { $0 = (start.id + Self.blockSize, start.seq + Self.blockSize) }
    }

    /// Takes a new block once half of the current one is used (called with each heartbeat).
    func refillIfNeeded(_ identifiers: Identifiers) async throws {
        let end = blockEnd.withLock { $0 }
        let now = identifiers.current
        if end.id - now.id < Self.blockSize / 2 || end.seq - now.seq < Self.blockSize / 2 {
            try await takeBlock(identifiers)
        }
    }
}

/// A request reached an instance that does not own its world: the HTTP front forwards it to the
/// owner's address. Nothing of the request was done here.
public struct WorldElsewhere: Error, TemporarilyUnavailable, CustomStringConvertible {
    /// The world the request was for.
    public var world: String
    /// The owning instance's advertised URL, where the request is forwarded.
    public var address: String
    /// A client that cannot be forwarded may retry after a second, once ownership has settled.
    public var retryAfterSeconds: Int { 1 }
    /// Names the world and the instance that serves it.
    public var description: String { "world \(world) is served by the instance at \(address)" }
}

/// Worlds a request asked for that another instance owns. The HTTP front keeps one per request
/// (in its request context), hands it to the world handles it makes (`AppStore.world(_:reportingTo:)`)
/// and forwards the request when it is filled, whatever the handler made of the error on its way out.
public final class WorldMisses: Sendable {
    private let state = Mutex<WorldElsewhere?>(nil)
    /// An empty record, bound for one request.
    public init() {}
    /// The first world the request found served elsewhere, if any; later misses are not kept.
    public var first: WorldElsewhere? { state.withLock { $0 } }
    /// Keeps the first miss; the front forwards to that world's owner.
    public func record(_ miss: WorldElsewhere) { state.withLock { if $0 == nil { $0 = miss } } }
}

/// Where a world is served from.
public enum WorldPlacement: Sendable, Equatable {
    case here
    case elsewhere(address: String)
}
