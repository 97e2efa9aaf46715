import Foundation
import StoreShared
import Testing

@Suite struct UUIDSourceTests {
    @Test func aSeedGivesTheSameVersion4SequenceEveryTime() throws {
        let a = UUIDSource.seeded(42), b = UUIDSource.seeded(42), other = UUIDSource.seeded(43)
        let first = (0..<100).map { _ in a.nextString() }
        #expect(first == (0..<100).map { _ in b.nextString() })
        #expect(Set(first).count == 100)
        #expect(Set(first).isDisjoint(with: (0..<100).map { _ in other.nextString() }))
        for text in first {
            let uuid = try #require(UUID(uuidString: text))
            #expect(uuid.uuid.6 >> 4 == 4 && uuid.uuid.8 >> 6 == 0b10, "not a version-4 RFC 4122 UUID: \(text)")
            #expect(text == text.lowercased())
        }
    }
}
