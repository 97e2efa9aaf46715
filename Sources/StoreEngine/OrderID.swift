/// Order IDs as on Apple's invoices ("MK5TTTVWJH"): ten characters of A–Z and 0–9. They are made
/// from a counter by a bijection, so they are unique without a lookup yet look unrelated.
enum OrderID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let modulus: UInt64 = 3_656_158_440_062_976 // 36^10
    /// Odd and not a multiple of 3, so multiplying by it permutes the residues of 36^10.
    private static let multiplier: UInt64 = 1_597_334_677

    static func make(_ counter: Int64) -> String {
        let n = UInt64(bitPattern: counter) % modulus
        let product = n.multipliedFullWidth(by: multiplier)
        let mixed = modulus.dividingFullWidth((product.high, product.low)).remainder
        var digits = [Character](repeating: "0", count: 10)
        var rest = mixed
        for index in stride(from: 9, through: 0, by: -1) {
            digits[index] = alphabet[Int(rest % 36)]
            rest /= 36
        }
        return String(digits)
    }
}
