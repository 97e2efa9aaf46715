import Foundation

/// Finds the date Apple's verifier validates the chain at (reference §5.2 step 4): the payload's
/// top-level `signedDate`, or `receiptCreationDate` for an app transaction, in milliseconds.
///
/// A single forward scan instead of a JSON decode keeps verification close to the cost of the
/// raw ECDSA check. Only top-level keys count; nested objects are skipped.
enum PayloadDate {
    enum ScanError: Error { case notAnObject }

    /// The validation date, nil when the payload has neither field (or it is not a number).
    static func validationDate(in payload: [UInt8]) throws(ScanError) -> Date? {
        let result: Result<Date?, ScanError> = payload.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            guard let fields = scanner.topLevelDates() else { return .failure(.notAnObject) }
            if let ms = fields.signedDate ?? fields.receiptCreationDate {
                return .success(Date(timeIntervalSince1970: ms / 1000))
            }
            return .success(nil)
        }
        return try result.get()
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        private static let signedDateKey = Array("signedDate".utf8)
        private static let receiptCreationDateKey = Array("receiptCreationDate".utf8)

        mutating func topLevelDates() -> (signedDate: Double?, receiptCreationDate: Double?)? {
            var signed: Double?
            var receipt: Double?
            skipWhitespace()
            guard consume(UInt8(ascii: "{")) else { return nil }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return trailingIsEmpty() ? (signed, receipt) : nil }
            while true {
                skipWhitespace()
                guard let key = readStringRange() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                let keyBytes = UnsafeBufferPointer(rebasing: bytes[key])
                if keyBytes.elementsEqual(Self.signedDateKey) || keyBytes.elementsEqual(Self.receiptCreationDateKey) {
                    let isSigned = keyBytes.count == Self.signedDateKey.count
                    let start = index
                    guard skipValue() else { return nil }
                    let number = Self.number(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    if isSigned { signed = number } else { receipt = number }
                } else if keyBytes.contains(UInt8(ascii: "\\")) {
                    return nil  // an escaped key could spell a date key; treat as unreadable rather than guess
                } else {
                    guard skipValue() else { return nil }
                }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "}")) { return trailingIsEmpty() ? (signed, receipt) : nil }
                return nil
            }
        }

        private mutating func trailingIsEmpty() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        private static func number(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
            guard let first = text.first, first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            else { return nil }
            guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
            return value
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Reads a string and returns the range of its raw contents (between the quotes).
        private mutating func readStringRange() -> Range<Int>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let end = index
                    index += 1
                    return start..<end
                }
                if byte == UInt8(ascii: "\\") { index += 2 } else if byte < 0x20 { return nil } else { index += 1 }
            }
            return nil
        }

        /// Skips one JSON value without validating it beyond balancing brackets and strings.
        private mutating func skipValue() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return readStringRange() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        guard readStringRange() != nil else { return false }
                        continue
                    }
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { index += 1; return true }
                    }
                    index += 1
                }
                return false
            default:
                // Number or literal: runs until a structural character or whitespace.
                let start = index
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
                        return index > start
                    default:
                        index += 1
                    }
                }
                return index > start
            }
        }
    }
}
