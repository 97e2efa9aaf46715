import Foundation
import StoreEngine
import StoreTestSupport
import Testing

@Suite(.removesTemporaryFolders) struct ReviewPromptTests {
    @Test func policyCountsPromptsInTheLast365DaysAndVersionsForever() {
        let year = ReviewPromptPolicy.windowMs
        let shown = [ReviewPromptPolicy.Prompt(atMs: 0, appVersion: "1"), .init(atMs: 10, appVersion: "2"), .init(atMs: 20, appVersion: "3")]
        #expect(ReviewPromptPolicy.refusal(shown: [], appVersion: "1", nowMs: 0) == nil)
        #expect(ReviewPromptPolicy.refusal(shown: shown, appVersion: "4", nowMs: 30) == .limitReached)
        #expect(ReviewPromptPolicy.refusal(shown: shown, appVersion: "4", nowMs: year - 1) == .limitReached)
        #expect(ReviewPromptPolicy.refusal(shown: shown, appVersion: "4", nowMs: year) == nil)
        #expect(ReviewPromptPolicy.refusal(shown: shown, appVersion: "1", nowMs: 10 * year) == .alreadyShownForVersion)
        #expect(ReviewPromptPolicy.refusal(shown: shown, appVersion: "2", nowMs: 30) == .alreadyShownForVersion)
    }

    @Test func atMostThreePromptsIn365DaysOfWorldTimeAndOnePerVersion() async throws {
        let store = try await makeStore()
        func ask(_ version: String, customer: String = "ana", bundleId: String = testBundle) async throws -> ReviewPromptDecision {
            try await store.world(AppStore.defaultWorld).requestReview(bundleId: bundleId, customer: customer, appVersion: version)
        }
        let shows = ReviewPromptDecision(wouldShowPrompt: true, reason: nil)
        #expect(try await ask("1.0") == shows)
        #expect(try await ask("1.0") == ReviewPromptDecision(wouldShowPrompt: false, reason: .alreadyShownForVersion))
        try await store.advance(days: 10)
        #expect(try await ask("1.1") == shows)
        try await store.advance(days: 10)
        #expect(try await ask("1.2") == shows)
        try await store.advance(days: 10)
        #expect(try await ask("1.3") == ReviewPromptDecision(wouldShowPrompt: false, reason: .limitReached))
        // Another customer, and another world, have their own allowance.
        #expect(try await ask("1.3", customer: "bob") == shows)
        _ = try await store.createWorld("w2")
        #expect(try await store.world("w2").requestReview(bundleId: testBundle, customer: "ana", appVersion: "1.3") == shows)
        // 365 days after the first prompt it no longer counts.
        try await store.advance(days: 365 - 31)
        #expect(try await ask("1.3") == ReviewPromptDecision(wouldShowPrompt: false, reason: .limitReached))
        try await store.advance(days: 1)
        #expect(try await ask("1.3") == shows)
        #expect(try await ask("1.4") == ReviewPromptDecision(wouldShowPrompt: false, reason: .limitReached))
        #expect(try await ask("1.0") == ReviewPromptDecision(wouldShowPrompt: false, reason: .alreadyShownForVersion))
    }

    @Test func concurrentRequestsNeverShowMoreThanThree() async throws {
        let store = try await makeStore()
        // Every request is answered (none throws); three show the prompt and nine are refused for
        // the 365-day limit, not for any other reason.
        let decisions = await withTaskGroup(of: Result<ReviewPromptDecision, StoreError>.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do {
                        return .success(try await store.world(AppStore.defaultWorld).requestReview(bundleId: testBundle, customer: "zoe", appVersion: "2.\(index)"))
                    } catch let error as StoreError {
                        return .failure(error)
                    } catch {
                        return .failure(.malformedRequest("unexpected \(error)"))
                    }
                }
            }
            var out: [Result<ReviewPromptDecision, StoreError>] = []
            for await decision in group { out.append(decision) }
            return out
        }
        let answered = decisions.compactMap { try? $0.get() }
        #expect(answered.count == 12, "\(decisions)")
        #expect(answered.filter(\.wouldShowPrompt).count == 3)
        #expect(answered.filter { !$0.wouldShowPrompt }.allSatisfy { $0.reason == .limitReached }, "\(answered)")
    }

    @Test func badInputIsRefused() async throws {
        let store = try await makeStore()
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestReview(bundleId: testBundle, customer: "ana", appVersion: "") } == "malformedRequest")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestReview(bundleId: testBundle, customer: "ana", appVersion: "1 0") } == "malformedRequest")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestReview(bundleId: "com.nope", customer: "ana", appVersion: "1") } == "appNotFound")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestReview(bundleId: testBundle, customer: "", appVersion: "1") } == "malformedRequest")
    }
}
