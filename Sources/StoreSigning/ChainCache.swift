import Crypto
import Foundation
import Synchronization

/// Remembers validated chains so verifying a JWS costs about one ECDSA verification plus
/// parsing, the same trade Apple's verifier makes with its (leaf, intermediate) cache.
///
/// Two levels: the exact header segment (skips base64 + JSON + X.509 work and carries the
/// SHA-256 state over `header.`), and the `x5c` leaf + intermediate strings (for headers that
/// differ only in other fields). Only successes are stored; both levels are bounded.
final class ChainCache: Sendable {
    struct HeaderEntry {
        let header: [UInt8]
        let chain: ValidatedChain
        /// SHA-256 after absorbing `header` + ".".
        let prefixHash: SHA256
    }

    private let headers = Mutex<[HeaderEntry]>([])
    private let chains = Mutex<[String: ValidatedChain]>([:])
    private let headerLimit = 16
    private let chainLimit = 64

    /// The entry whose header bytes equal `header`, compared without copying the input.
    func entry(forHeader header: UnsafeRawBufferPointer) -> HeaderEntry? {
        headers.withLock { headers in
            for entry in headers where entry.header.count == header.count {
                let equal = entry.header.withUnsafeBytes { stored -> Bool in
                    guard let lhs = stored.baseAddress, let rhs = header.baseAddress else { return false }
                    return memcmp(lhs, rhs, header.count) == 0
                }
                if equal { return entry }
            }
            return nil
        }
    }

    func insert(_ entry: HeaderEntry) {
        headers.withLock { headers in
            if headers.count >= headerLimit { headers.removeFirst() }
            headers.append(entry)
        }
    }

    func chain(forKey key: String) -> ValidatedChain? {
        chains.withLock { $0[key] }
    }

    func insert(_ chain: ValidatedChain, forKey key: String) {
        chains.withLock { chains in
            if chains.count >= chainLimit { chains.removeAll(keepingCapacity: true) }
            chains[key] = chain
        }
    }
}
