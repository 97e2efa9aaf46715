import StoreKit
import Testing

/// `SKError` reads as app code reads it on Apple platforms.
@Suite struct SKErrorTests {
    @Test func appCodeReadsItsCodeAsOnApplePlatforms() throws {
        let error: any Error = SKError(.paymentCancelled, userInfo: [NSLocalizedDescriptionKey: "cancelled in a test"])
        #expect((error as? SKError)?.code == .paymentCancelled && SKError.paymentCancelled == .paymentCancelled)
        #expect(error.localizedDescription == "cancelled in a test")
        let bridged = error as NSError
        #expect(bridged.domain == SKErrorDomain && bridged.code == SKError.Code.paymentCancelled.rawValue)
        do {
            throw error
        } catch SKError.paymentCancelled {
        } catch {
            Issue.record("catch SKError.paymentCancelled did not match \(error)")
        }
        switch error {
        case SKError.paymentNotAllowed: Issue.record("matched the wrong code")
        case SKError.paymentCancelled: break
        default: Issue.record("case SKError.paymentCancelled did not match")
        }
        #expect(SKError.Code(rawValue: 20) == .overlayPresentedInBackgroundScene && SKError.Code(rawValue: 21) == nil)
    }
}
