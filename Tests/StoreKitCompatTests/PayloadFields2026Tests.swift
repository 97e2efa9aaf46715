import Foundation
import StoreKit
import Testing

/// The 2026 fields of the signed payloads reach StoreKit's public types (issue #28): a purchase
/// on the "monthly with a 12-month commitment" plan (`PurchaseOption.billingPlanType(.monthly)`)
/// carries `billingPlanType` and `commitmentInfo`; its renewal info `renewalBillingPlanType` and
/// `commitmentInfo`; a refund `revocationType` and `revocationPercentage`.
@Suite struct PayloadFields2026Tests {
    @Test(.timeLimit(.minutes(1))) func commitmentAndRevocationFieldsAreDecoded() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            let connection = StoreConnection(OpenStoreKit.Configuration(
                store: server.url, bundleID: CompatTestStore.commitment, customer: "commit", world: world, createsCustomer: true))
            try await OpenStoreKit.withConnection(connection) {
                let yearly = try #require(try await Product.products(for: ["test.yearly"]).first)
                // The plans it is sold on, from the catalog's `billingPlans`.
                let terms = try #require(yearly.subscription?.pricingTerms)
                #expect(terms.map(\.billingPlanType) == [.monthly])
                #expect(terms.first?.billingPeriod == .monthly && terms.first?.billingPrice == Decimal(string: "3.99"))
                #expect(terms.first?.billingDisplayPrice == "$3.99")
                #expect(terms.first?.commitmentInfo.price == Decimal(string: "47.88") && terms.first?.commitmentInfo.period == .yearly)
                let result = try await yearly.purchase(options: [.billingPlanType(.monthly)])
                guard case .success(.verified(let bought)) = result else {
                    Issue.record("expected a verified purchase, got \(result)")
                    return
                }
                #expect(bought.billingPlanType == .monthly && bought.price == Decimal(string: "3.99"))
                let commitment = try #require(bought.commitmentInfo)
                #expect(commitment.billingPeriodNumber == 1 && commitment.totalBillingPeriods == 12)
                #expect(commitment.price == Decimal(string: "47.88") && commitment.expirationDate > bought.purchaseDate)

                let status = try #require(try await yearly.subscription?.status.first)
                let renewal = try status.renewalInfo.payloadValue
                #expect(renewal.renewalBillingPlanType == .monthly)
                #expect(renewal.commitmentInfo?.renewalBillingPlanType == .monthly && renewal.commitmentInfo?.willAutoRenew == true)
                #expect(renewal.commitmentInfo?.renewalPrice == Decimal(string: "47.88"))

                try await server.refund(world, transaction: bought.id)
                var refunded: StoreKit.Transaction?
                for await result in StoreKit.Transaction.all(for: "test.yearly") where result.unsafePayloadValue.id == bought.id {
                    refunded = try result.payloadValue
                }
                let revoked = try #require(refunded)
                #expect(revoked.revocationType == .fullRefund && revoked.revocationTypeStringRepresentation == "REFUND_FULL")
                #expect(revoked.revocationDate != nil)
            }
        }
    }
}
