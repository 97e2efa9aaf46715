import Foundation

/// Hand-written base64 / base64url codecs over bytes.
///
/// JWS signing sits on the hot path of every purchase, so encoding must not go through
/// `String` replacement passes. Decoding is strict, because a lenient decoder would let two
/// different strings verify as the same token.
public enum Base64URL {
    @usableFromInline
    static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    @usableFromInline
    static let standardAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for a base64url character, 0xFF otherwise.
    @usableFromInline
    static let urlDecodeTable: [UInt8] = makeDecodeTable(urlAlphabet)
    /// 0...63 for a standard base64 character, 0xFF otherwise.
    @usableFromInline
    static let standardDecodeTable: [UInt8] = makeDecodeTable(standardAlphabet)

    private static func makeDecodeTable(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }

    /// Number of characters of unpadded base64url for `count` bytes.
    @inlinable
    public static func encodedCount(_ count: Int) -> Int {
        (count / 3) * 4 + [0, 2, 3][count % 3]
    }

    /// Appends unpadded base64url of `bytes` to `output`.
    @inlinable
    public static func append<Bytes: Collection>(_ bytes: Bytes, to output: inout [UInt8]) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            appendEncoded(UnsafeRawBufferPointer(buffer), padded: false, alphabet: urlAlphabet, to: &output)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { appendEncoded($0, padded: false, alphabet: urlAlphabet, to: &output) }
        }
    }

    /// Unpadded base64url of `bytes`.
    @inlinable
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(encodedCount(bytes.count))
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Standard, padded base64 (the form `x5c` requires).
    public static func encodeStandard<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let copy = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((copy.count + 2) / 3 * 4)
        copy.withUnsafeBytes { appendEncoded($0, padded: true, alphabet: standardAlphabet, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    @inlinable
    static func appendEncoded(_ input: UnsafeRawBufferPointer, padded: Bool, alphabet: [UInt8], to output: inout [UInt8]) {
        let count = input.count
        let fullGroups = count / 3
        let remainder = count % 3
        let outCount = fullGroups * 4 + (remainder == 0 ? 0 : (padded ? 4 : remainder + 1))
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: outCount))
        alphabet.withUnsafeBufferPointer { table in
            output.withUnsafeMutableBufferPointer { out in
                var o = start
                var i = 0
                for _ in 0..<fullGroups {
                    let b0 = UInt32(input[i]), b1 = UInt32(input[i &+ 1]), b2 = UInt32(input[i &+ 2])
                    let n = (b0 << 16) | (b1 << 8) | b2
                    out[o] = table[Int((n >> 18) & 63)]
                    out[o &+ 1] = table[Int((n >> 12) & 63)]
                    out[o &+ 2] = table[Int((n >> 6) & 63)]
                    out[o &+ 3] = table[Int(n & 63)]
                    i &+= 3
                    o &+= 4
                }
                if remainder == 1 {
                    let n = UInt32(input[i]) << 16
                    out[o] = table[Int((n >> 18) & 63)]
                    out[o &+ 1] = table[Int((n >> 12) & 63)]
                    if padded { out[o &+ 2] = UInt8(ascii: "="); out[o &+ 3] = UInt8(ascii: "=") }
                } else if remainder == 2 {
                    let n = (UInt32(input[i]) << 16) | (UInt32(input[i &+ 1]) << 8)
                    out[o] = table[Int((n >> 18) & 63)]
                    out[o &+ 1] = table[Int((n >> 12) & 63)]
                    out[o &+ 2] = table[Int((n >> 6) & 63)]
                    if padded { out[o &+ 3] = UInt8(ascii: "=") }
                }
            }
        }
    }

    /// Decodes unpadded base64url (trailing `=` padding is tolerated, as some JWT libraries emit it).
    /// Returns nil on any other character or on non-canonical trailing bits.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        var copy = String(string)
        return copy.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes base64url bytes; see ``decode(_:)-(StringProtocol)``.
    public static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        var end = input.count
        // Up to two padding characters, only if they complete a 4-character group.
        if end % 4 == 0 {
            var pads = 0
            while pads < 2, end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1; pads += 1 }
        }
        return decodeBody(UnsafeRawBufferPointer(rebasing: input[0..<end]), table: urlDecodeTable)
    }

    /// Strict standard base64 with mandatory padding, like Python's `b64decode(validate=True)`.
    public static func decodeStandard(_ string: some StringProtocol) -> [UInt8]? {
        var copy = String(string)
        return copy.withUTF8 { buffer -> [UInt8]? in
            let input = UnsafeRawBufferPointer(buffer)
            guard input.count % 4 == 0 else { return nil }
            var end = input.count
            var pads = 0
            while pads < 2, end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1; pads += 1 }
            return decodeBody(UnsafeRawBufferPointer(rebasing: input[0..<end]), table: standardDecodeTable)
        }
    }

    private static func decodeBody(_ input: UnsafeRawBufferPointer, table: [UInt8]) -> [UInt8]? {
        let count = input.count
        if count % 4 == 1 { return nil }
        var output = [UInt8]()
        output.reserveCapacity(count / 4 * 3 + 2)
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var i = 0
            let fullEnd = count - count % 4
            while i < fullEnd {
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                let c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
                if (a | b | c | d) & 0xC0 != 0 { return nil }
                let n = (UInt32(a) << 18) | (UInt32(b) << 12) | (UInt32(c) << 6) | UInt32(d)
                output.append(UInt8(truncatingIfNeeded: n >> 16))
                output.append(UInt8(truncatingIfNeeded: n >> 8))
                output.append(UInt8(truncatingIfNeeded: n))
                i += 4
            }
            switch count - fullEnd {
            case 2:
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                if (a | b) & 0xC0 != 0 || b & 0x0F != 0 { return nil }
                output.append((a << 2) | (b >> 4))
            case 3:
                let a = table[Int(input[i])], b = table[Int(input[i + 1])], c = table[Int(input[i + 2])]
                if (a | b | c) & 0xC0 != 0 || c & 0x03 != 0 { return nil }
                output.append((a << 2) | (b >> 4))
                output.append((b << 4) | (c >> 2))
            default:
                break
            }
            return output
        }
    }
}
