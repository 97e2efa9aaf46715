import Foundation
import Synchronization
import OpenStoreKit
import Testing

/// How app code under test reaches the store of the session its test made, without a change:
/// `OpenStoreKit.connection()` asks this resolver (after a `withConnection` scope).
///
/// A Swift Testing test is known by `Test.current` (a task-local that child tasks and `Task {}`
/// inherit), and for a parameterised test by its case too; a session made in it is that test's.
/// Outside Swift Testing (XCTest, a plain program), or in a test that made no session, the most
/// recent live session answers, which is right whenever such tests run one at a time.
final class SessionRegistry: Sendable {
    static let shared: SessionRegistry = {
        let registry = SessionRegistry()
        OpenStoreKit.setConnectionResolver { registry.connection() }
        return registry
    }()

    /// Held strongly: a test's last use of its session is often the line before the app code it
    /// tests, and the session must outlive it. A session is released (and its world deleted)
    /// when its test makes another one, or, for the latest, when another is made anywhere.
    private struct Sessions {
        var byTest: [String: SKTestSession] = [:]
        var latest: SKTestSession?
    }
    private let sessions = Mutex(Sessions())

    /// Makes `session` the one of the current test (and the most recent one).
    func register(_ session: SKTestSession) {
        let key = Self.currentTestKey()
        let released = sessions.withLock { sessions -> [SKTestSession?] in
            var released: [SKTestSession?] = [sessions.latest]
            if let key { released.append(sessions.byTest.updateValue(session, forKey: key)) }
            sessions.latest = session
            return released
        }
        _ = released  // dropped here, outside the lock (deinit deletes their worlds)
    }

    func connection() -> StoreConnection? {
        if let key = Self.currentTestKey(), let session = sessions.withLock({ $0.byTest[key] }) {
            return session.connection
        }
        // A Swift Testing test that made no session of its own must not reach another test's.
        guard Test.current == nil else { return nil }
        return sessions.withLock { $0.latest }?.connection
    }

    /// The running Swift Testing test (and case, when it is parameterised), or nil outside one.
    static func currentTestKey() -> String? {
        guard let test = Test.current else { return nil }
        var key = String(describing: test.id)
        if let testCase = Test.Case.current, testCase.isParameterized {
            key += "|" + String(describing: testCase)
        }
        return key
    }
}
