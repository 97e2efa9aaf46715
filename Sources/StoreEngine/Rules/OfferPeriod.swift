import StoreModel

/// When the first period under an introductory or promotional offer ends: free trials and
/// pay-up-front offers cover their whole duration; a pay-as-you-go offer bills period by period.
enum OfferPeriod {
    static func end(startingAt start: Int64, offer: CatalogOffer, rate: TimeRate) -> Int64 {
        switch offer.paymentMode {
        case .freeTrial, .payUpFront: RenewalSchedule.end(of: offer.period, count: offer.periodCount, startingAt: start, rate: rate)
        case .payAsYouGo: RenewalSchedule.end(of: offer.period, startingAt: start, rate: rate)
        }
    }
}
