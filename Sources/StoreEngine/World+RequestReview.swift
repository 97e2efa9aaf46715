import Foundation
import StoreStorage

/// What `AppStore.requestReview(in:)` did: whether the rating prompt showed and, if not, why.
public struct ReviewPromptDecision: Codable, Sendable, Equatable {
    /// Whether the rating prompt would have appeared.
    public var wouldShowPrompt: Bool
    /// Why it did not, when it did not.
    public var reason: ReviewPromptPolicy.Refusal?
    /// A decision with the given outcome.
    public init(wouldShowPrompt: Bool, reason: ReviewPromptPolicy.Refusal?) {
        self.wouldShowPrompt = wouldShowPrompt
        self.reason = reason
    }
}

/// Review prompts shown per customer and app, for `ReviewPromptPolicy`.
extension World {
    static let reviewPromptKind = "review_prompts"
    /// One read–decide–write at a time per customer and app, in every world.
    static let reviewPromptQueue = KeyedSerializer()

    /// Asks for the prompt for `appVersion`; a prompt that shows is recorded at the world's time.
    func requestReview(bundleId: String, customer: String, appVersion: String) async throws -> ReviewPromptDecision {
        let lockKey = "\(id)\u{0}\(bundleId)\u{0}\(customer)"
        return try await Self.reviewPromptQueue.serialized(lockKey) {
            try await decideReviewPrompt(bundleId: bundleId, customer: customer, appVersion: appVersion)
        }
    }

    private func decideReviewPrompt(bundleId: String, customer: String, appVersion: String) async throws -> ReviewPromptDecision {
        let recordKey = "\(bundleId)\n\(customer)"
        var shown = try await reviewPrompts(recordKey)
        let now = nowMs()
        if let refusal = ReviewPromptPolicy.refusal(shown: shown, appVersion: appVersion, nowMs: now) {
            return ReviewPromptDecision(wouldShowPrompt: false, reason: refusal)
        }
        shown.append(ReviewPromptPolicy.Prompt(atMs: now, appVersion: appVersion))
        let value = String(decoding: try PayloadCoding.encoder.encode(shown), as: UTF8.self)
        try await commit(WriteBatch(worldRecords: [WorldRecord(world: id, kind: Self.reviewPromptKind, key: recordKey, value: value)]))
        return ReviewPromptDecision(wouldShowPrompt: true, reason: nil)
    }

    private func reviewPrompts(_ recordKey: String) async throws -> [ReviewPromptPolicy.Prompt] {
        // Only the customer's record is decoded; the kind holds one small document per customer and app.
        guard let record = try await env.database.worldRecords(world: id, kind: Self.reviewPromptKind).first(where: { $0.key == recordKey }) else {
            return []
        }
        return (try? PayloadCoding.decoder.decode([ReviewPromptPolicy.Prompt].self, from: Data(record.value.utf8))) ?? []
    }
}
