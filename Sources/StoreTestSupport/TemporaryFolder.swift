import Foundation
import Testing

/// Store folders for tests, in the system's temporary directory, that do not outlive the test.
///
/// A test run used to leave a hundred `openstore-*` folders behind, which fills a shared CI
/// runner's disk. Inside a suite marked `.removesTemporaryFolders`, each folder is removed when
/// the test that made it ends, whether it passed, failed or threw. A folder made outside such a
/// suite is removed when the test process exits. `scripts/test.sh` checks that none is left.
public enum TemporaryFolder {
    /// A new, empty folder named `openstore-<kind>-<UUID>`.
    public static func make(_ kind: String) -> URL {
        let folder = created(kind)
        if let owner = FolderList.current {
            owner.add(folder)
        } else {
            FolderList.process.add(folder)
        }
        return folder
    }

    /// A new, empty folder that outlives the test that made it (shared by the tests of one
    /// process), removed when the process exits.
    public static func makeForProcess(_ kind: String) -> URL {
        let folder = created(kind)
        FolderList.process.add(folder)
        return folder
    }

    private static func created(_ kind: String) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-\(kind)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// The folders one test made (or, outside any test scope, the whole process).
final class FolderList: @unchecked Sendable {
    @TaskLocal static var current: FolderList?

    /// Folders made outside a `.removesTemporaryFolders` scope: removed at exit.
    static let process: FolderList = {
        let list = FolderList()
        atexit { FolderList.process.removeAll() }
        return list
    }()

    private let lock = NSLock()
    private var folders: [URL] = []

    func add(_ folder: URL) { lock.withLock { folders.append(folder) } }

    func removeAll() {
        let taken = lock.withLock { () -> [URL] in
            defer { folders.removeAll() }
            return folders
        }
        for folder in taken { try? FileManager.default.removeItem(at: folder) }
    }
}

/// Removes the folders each test of the suite made with `TemporaryFolder.make` when the test ends.
public struct RemovesTemporaryFolders: SuiteTrait, TestTrait, TestScoping {
    /// Applied to a suite, the trait reaches every test inside it, nested suites included.
    public var isRecursive: Bool { true }

    /// The trait; tests usually spell it `.removesTemporaryFolders`.
    public init() {}

    /// Runs one test case with a folder list of its own and removes the folders it made when it ends,
    /// also when it throws.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Suites and parameterised functions as a whole: their test cases get their own scope.
        guard testCase != nil else { return try await function() }
        let list = FolderList()
        defer { list.removeAll() }
        try await FolderList.$current.withValue(list) { try await function() }
    }
}

extension Trait where Self == RemovesTemporaryFolders {
    /// Every store folder a test of the suite makes is removed when that test ends.
    public static var removesTemporaryFolders: Self { Self() }
}
