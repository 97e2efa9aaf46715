import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StoreNotifications
import StoreTestSupport
import Testing
@testable import StoreEngine

/// A receiver whose port refuses connections is a SOCKET_ISSUE at once (issue 16 §14), not a
/// failure recorded only when the delivery timeout ends.
@Suite("Refused connections", .serialized, .removesTemporaryFolders)
struct RefusedConnectionTests {
    @Test("a refused connection is recorded as SOCKET_ISSUE without waiting for the timeout")
    func refusedIsImmediate() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        // A port bound but not listening refuses connections, and stays ours for the whole test:
        // a receiver's freed port could be taken by another test's server meanwhile (seen once,
        // answered as UNSUCCESSFUL_HTTP_RESPONSE_CODE).
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let receiverURL = "http://127.0.0.1:\(refusing.port)/notify"
        // A timeout far longer than the test's own bound: an attempt that waited for it would
        // never be recorded before the bound below.
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 600))
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiverURL, bundleId: notificationBundle)
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: notificationBundle, productId: "test.seeds", customer: "jane"))

        let drained = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { _ = try await delivery.drain(); return true }
            group.addTask { try await Task.sleep(for: .seconds(60)); return false }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(drained, "the attempt was still waiting after 60 s: the refusal was not seen as one")
        let rows = try await store.world(AppStore.defaultWorld).notifications()
        #expect(rows.count == 1)
        #expect(rows.first?.sendAttempts.map(\.sendAttemptResult) == ["SOCKET_ISSUE"])
        await delivery.shutdown()
    }
}

/// A loopback TCP port that is bound but never listens: connecting to it is refused at once.
struct RefusingPort {
    let descriptor: Int32
    let port: Int

    struct Failure: Error {}

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { _ = Glibc.close(fd); throw Failure() }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
