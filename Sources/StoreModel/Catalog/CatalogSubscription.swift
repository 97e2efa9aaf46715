/// The auto-renewable part of a product: its group, level, period and offers.
public struct CatalogSubscription: Sendable, Equatable {
    /// The group's `id` (Product.SubscriptionInfo.subscriptionGroupID).
    public var groupID: String
    /// `groupNumber`: the service level inside the group; 1 is the highest. Moving to a lower
    /// number is an upgrade, to a higher one a downgrade, to the same one a crossgrade.
    public var groupLevel: Int
    /// `recurringSubscriptionPeriod`.
    public var period: SubscriptionPeriod
    /// `introductoryOffer`: an object, `null` or absent in the file.
    public var introductoryOffer: CatalogOffer?
    /// `introductoryOffers[]`: the 2026 form, one per billing plan type.
    public var introductoryOffers: [CatalogOffer]
    /// `adHocOffers[]`.
    public var promotionalOffers: [CatalogOffer]
    /// `codeOffers[]`: offers redeemed with an offer code.
    public var codeOffers: [CatalogOffer]
    /// `winbackOffers[]` (lowercase "b" in the file).
    public var winBackOffers: [CatalogOffer]
    /// `billingPlans[]`: the 2026 billing plans (e.g. monthly with a 12-month commitment); empty in older files.
    public var billingPlans: [BillingPlan]

    /// The subscription part of a product, as the parser or a test builds it.
    public init(
        groupID: String, groupLevel: Int, period: SubscriptionPeriod, introductoryOffer: CatalogOffer? = nil,
        introductoryOffers: [CatalogOffer] = [], promotionalOffers: [CatalogOffer] = [],
        codeOffers: [CatalogOffer] = [], winBackOffers: [CatalogOffer] = [], billingPlans: [BillingPlan] = []
    ) {
        self.groupID = groupID
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.introductoryOffers = introductoryOffers
        self.promotionalOffers = promotionalOffers
        self.codeOffers = codeOffers
        self.winBackOffers = winBackOffers
        self.billingPlans = billingPlans
    }

    /// Every offer of the subscription, in file order of the lists: introductory, promotional,
    /// code, win-back.
    public var allOffers: [CatalogOffer] {
        var result: [CatalogOffer] = []
        if let introductoryOffer { result.append(introductoryOffer) }
        result += introductoryOffers + promotionalOffers + codeOffers + winBackOffers
        return result
    }
}
