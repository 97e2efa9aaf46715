extension DemoCatalogs {
    /// Food Truck (bundle ID `com.example.foodtruck`): the "Annual Sales History" non-consumable and
    /// the "Social Feed+" group, whose monthly and yearly plans share level 1 (switching between
    /// them is a crossgrade), with intro, promotional and code offers; en_US and es_MX texts.
    public static let foodTruck: String = #"""
{
  "appPolicies" : {
    "eula" : "",
    "policies" : [
      {
        "locale" : "en_US",
        "policyText" : "",
        "policyURL" : "https://example.com/foodtruck/privacy"
      }
    ]
  },
  "identifier" : "F00D7A0C",
  "nonRenewingSubscriptions" : [

  ],
  "products" : [
    {
      "displayPrice" : "4.99",
      "familyShareable" : true,
      "internalID" : "6A1D4E0F",
      "localizations" : [
        {
          "description" : "See a full year of sales, trends and your best-selling donuts.",
          "displayName" : "Annual Sales History",
          "locale" : "en_US"
        },
        {
          "description" : "Consulta un año completo de ventas, tendencias y tus donas más vendidas.",
          "displayName" : "Historial de ventas anual",
          "locale" : "es_MX"
        }
      ],
      "productID" : "com.example.foodtruck.annualhistory",
      "referenceName" : "Annual Sales History",
      "type" : "NonConsumable"
    }
  ],
  "settings" : {
    "_billingGracePeriodEnabled" : true,
    "_locale" : "en_US",
    "_renewalBillingIssuesEnabled" : false,
    "_storefront" : "USA",
    "_timeRate" : 0
  },
  "subscriptionGroups" : [
    {
      "id" : "F7E50C1A",
      "localizations" : [

      ],
      "name" : "Social Feed+",
      "subscriptions" : [
        {
          "adHocOffers" : [
            {
              "displayPrice" : "2.99",
              "internalID" : "C0B3A2F1",
              "numberOfPeriods" : 3,
              "offerID" : "com.example.foodtruck.socialfeedplus.monthly.comeback",
              "paymentMode" : "payAsYouGo",
              "referenceName" : "Come Back Special",
              "subscriptionPeriod" : "P1M"
            }
          ],
          "codeOffers" : [

          ],
          "displayPrice" : "4.99",
          "familyShareable" : false,
          "groupNumber" : 1,
          "internalID" : "1E9D5B20",
          "introductoryOffer" : {
            "internalID" : "9A7C3E42",
            "numberOfPeriods" : 1,
            "paymentMode" : "free",
            "subscriptionPeriod" : "P1W"
          },
          "localizations" : [
            {
              "description" : "Advanced social feed tools to grow your truck's following.",
              "displayName" : "Social Feed+ Monthly",
              "locale" : "en_US"
            },
            {
              "description" : "Herramientas avanzadas de redes sociales para que tu food truck crezca.",
              "displayName" : "Social Feed+ mensual",
              "locale" : "es_MX"
            }
          ],
          "productID" : "com.example.foodtruck.socialfeedplus.monthly",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Social Feed+ (Monthly)",
          "subscriptionGroupID" : "F7E50C1A",
          "type" : "RecurringSubscription"
        },
        {
          "adHocOffers" : [

          ],
          "codeOffers" : [
            {
              "displayPrice" : "24.99",
              "eligibility" : [
                "new",
                "expired"
              ],
              "internalID" : "5D2F8A63",
              "isStackable" : false,
              "paymentMode" : "payUpFront",
              "referenceName" : "Half Off First Year",
              "subscriptionPeriod" : "P1Y"
            }
          ],
          "displayPrice" : "49.99",
          "familyShareable" : false,
          "groupNumber" : 1,
          "internalID" : "B4E61C74",
          "introductoryOffer" : {
            "displayPrice" : "9.99",
            "internalID" : "E8F0D285",
            "numberOfPeriods" : 1,
            "paymentMode" : "payUpFront",
            "subscriptionPeriod" : "P3M"
          },
          "localizations" : [
            {
              "description" : "All the Social Feed+ tools for a full year, at a better price.",
              "displayName" : "Social Feed+ Yearly",
              "locale" : "en_US"
            },
            {
              "description" : "Todas las herramientas de Social Feed+ durante un año, a mejor precio.",
              "displayName" : "Social Feed+ anual",
              "locale" : "es_MX"
            }
          ],
          "productID" : "com.example.foodtruck.socialfeedplus.yearly",
          "recurringSubscriptionPeriod" : "P1Y",
          "referenceName" : "Social Feed+ (Yearly)",
          "subscriptionGroupID" : "F7E50C1A",
          "type" : "RecurringSubscription"
        }
      ]
    }
  ],
  "version" : {
    "major" : 3,
    "minor" : 0
  }
}

"""#
}
