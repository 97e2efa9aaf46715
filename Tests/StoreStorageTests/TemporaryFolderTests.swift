import Foundation
import StoreTestSupport
import Testing

/// The trait every store-making suite carries: what a test made is gone when the test ends, and
/// also when it fails or throws.
@Suite struct TemporaryFolderTests {
    struct Boom: Error {}

    @Test func foldersAreRemovedWhenTheTestEndsEvenIfItThrows() async throws {
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        let made = Locked<[URL]>([])
        await #expect(throws: Boom.self) {
            try await RemovesTemporaryFolders().provideScope(for: test, testCase: testCase) {
                for kind in ["one", "two"] {
                    let folder = TemporaryFolder.make(kind)
                    try Data("x".utf8).write(to: folder.appendingPathComponent("store.sqlite"))
                    made.value.append(folder)
                }
                #expect(made.value.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
                throw Boom()
            }
        }
        #expect(made.value.count == 2)
        #expect(made.value.allSatisfy { $0.lastPathComponent.hasPrefix("openstore-") })
        #expect(made.value.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "\(made.value)")
    }
}
