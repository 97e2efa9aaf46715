/// SplitMix64: small, fast, and the same sequence for the same seed on every platform, so a failing
/// fuzz or shuffle run replays exactly from its printed seed (`OPENSTORE_FUZZ_SEED`).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`, so a run can be replayed from it.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next value of the SplitMix64 sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
