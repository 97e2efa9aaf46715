import AsyncHTTPClient
import Foundation
@testable import StoreKitTest
import StoreModel
import Testing

/// A hosted store leaves nothing behind: its folder is gone and its port closed once it stops.
@Suite(.timeLimit(.minutes(2))) struct CleanUpTests {
    @Test func aStoppedStoreLeavesNoFolderAndNoOpenPort() async throws {
        let text = try String(contentsOf: Configurations.garden, encoding: .utf8)
        let host = try await HostedStore.start(catalogJSON: text, catalog: try Catalog.decode(Data(text.utf8)))
        #expect(FileManager.default.fileExists(atPath: host.folder.path))
        #expect(LeftoverFolders.shared.all.contains(host.folder))
        let healthy = try await HTTPClient.shared.execute(HTTPClientRequest(url: host.url.absoluteString + "/healthz"), timeout: .seconds(10))
        #expect(healthy.status == .ok)
        await host.stop()
        #expect(!FileManager.default.fileExists(atPath: host.folder.path))
        #expect(!LeftoverFolders.shared.all.contains(host.folder))
        await #expect(throws: (any Error).self) {
            _ = try await HTTPClient.shared.execute(HTTPClientRequest(url: host.url.absoluteString + "/healthz"), timeout: .seconds(10))
        }
    }

    @Test func everyHostedStoreFolderIsInTheTemporaryDirectory() async throws {
        _ = try SKTestSession(contentsOf: Configurations.garden)
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        #expect(!LeftoverFolders.shared.all.isEmpty)
        #expect(LeftoverFolders.shared.all.allSatisfy { $0.standardizedFileURL.path.hasPrefix(temporary) && $0.lastPathComponent.hasPrefix("openstore-sktest-") })
    }
}
