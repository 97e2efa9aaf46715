import Crypto
import Foundation

/// `AppTransaction.deviceVerification`, as Apple documents verifying it: the SHA-384 hash of the
/// lowercased `deviceVerificationNonce` string followed by the lowercased device verification
/// identifier string (`identifierForVendor` on iOS), base64-encoded in the JWS.
public enum DeviceVerification {
    /// The customer's device verification identifier: one device per customer, stable for the
    /// world (a UUID derived from the world and customer names, so no storage is needed; real
    /// devices have one per vendor).
    public static func identifier(world: String, customer: String) -> String {
        var bytes = Array(SHA256.hash(data: Array("openstore device verification\u{0}\(world)\u{0}\(customer)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// base64(SHA-384(lowercase(nonce) + lowercase(deviceId))).
    public static func value(nonce: String, deviceId: String) -> String {
        Data(SHA384.hash(data: Array((nonce.lowercased() + deviceId.lowercased()).utf8))).base64EncodedString()
    }
}
