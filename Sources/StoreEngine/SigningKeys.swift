import Foundation
import StoreSigning
import StoreStorage

/// The store's certificate authority lives in its database: created on first start, the same ever
/// after, so clients keep trusting the root they exported once.
enum SigningKeys {
    static let metaKey = "certificate_authority"

    static func loadOrCreate(in database: StoreDatabase) async throws -> CertificateAuthority {
        if let stored = try await database.meta(metaKey) {
            let material = try JSONDecoder().decode(CertificateAuthorityMaterial.self, from: Data(stored.utf8))
            return try CertificateAuthority(material: material)
        }
        let authority = try CertificateAuthority.generate()
        let text = String(decoding: try JSONEncoder().encode(authority.material), as: UTF8.self)
        try await database.write(WriteBatch(meta: [metaKey: text]))
        return authority
    }
}
