import Foundation
import Synchronization

/// Where random identifiers come from (notification UUIDs, nonces, refund-request and message
/// IDs): the system's random UUIDs in production, or a seeded, repeatable sequence in tests, so
/// nothing in the engine calls `UUID()` itself and a test can predict every identifier.
public struct UUIDSource: Sendable {
    private let make: @Sendable () -> UUID

    /// A source from any generator; `.system` and `.seeded(_:)` cover production and tests.
    public init(_ make: @escaping @Sendable () -> UUID) {
        self.make = make
    }

    /// Random version-4 UUIDs from the system.
    public static let system = UUIDSource { UUID() }

    /// The same sequence of version-4 UUIDs for the same seed, every run (SplitMix64).
    public static func seeded(_ seed: UInt64) -> UUIDSource {
        let generator = SeededUUIDs(seed: seed)
        return UUIDSource { generator.next() }
    }

    /// The next identifier as a `UUID`; `nextString()` gives the lowercased text records store.
    public func next() -> UUID { make() }

    /// Lowercased, as Apple's payloads and our records carry UUIDs.
    public func nextString() -> String { make().uuidString.lowercased() }
}

/// SplitMix64 behind a lock: 128 bits per UUID, with the version and variant bits set.
private final class SeededUUIDs: Sendable {
    private let state: Mutex<UInt64>

    init(seed: UInt64) { state = Mutex(seed) }

    func next() -> UUID {
        let (high, low) = state.withLock { state in (Self.step(&state), Self.step(&state)) }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private static func step(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
