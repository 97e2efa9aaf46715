extension DemoCatalogs {
    /// Backyard Birds (bundle ID `com.example.backyardbirds`): six bird-food consumables and the
    /// three-level "Backyard Birds Pass" group (Premium 1, Family 2, Individual 3) with free trials,
    /// a promotional offer, an offer code and a win-back offer; en_US and fr_FR texts.
    public static let backyardBirds: String = #"""
{
  "appPolicies" : {
    "eula" : "",
    "policies" : [
      {
        "locale" : "en_US",
        "policyText" : "",
        "policyURL" : "https://example.com/backyardbirds/privacy"
      }
    ]
  },
  "identifier" : "B1DB1D07",
  "nonRenewingSubscriptions" : [

  ],
  "products" : [
    {
      "displayPrice" : "0.99",
      "familyShareable" : false,
      "internalID" : "4A1C0E21",
      "localizations" : [
        {
          "description" : "A handful of pellets packed with everything a growing bird needs.",
          "displayName" : "Nutrition Pellets",
          "locale" : "en_US"
        },
        {
          "description" : "Une poignée de granulés pleins de tout ce dont un oiseau a besoin.",
          "displayName" : "Granulés nutritifs",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.pellets",
      "referenceName" : "Nutrition Pellets",
      "type" : "Consumable"
    },
    {
      "displayPrice" : "1.99",
      "familyShareable" : false,
      "internalID" : "7D3E9B42",
      "localizations" : [
        {
          "description" : "Black-oil sunflower seeds that finches and chickadees adore.",
          "displayName" : "Sunflower Seeds",
          "locale" : "en_US"
        },
        {
          "description" : "Des graines de tournesol noires qui ravissent pinsons et mésanges.",
          "displayName" : "Graines de tournesol",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.sunflowerseeds",
      "referenceName" : "Sunflower Seeds",
      "type" : "Consumable"
    },
    {
      "displayPrice" : "1.49",
      "familyShareable" : false,
      "internalID" : "C2F0A563",
      "localizations" : [
        {
          "description" : "A fresh cup of nectar to bring hummingbirds to your garden.",
          "displayName" : "Sweet Nectar",
          "locale" : "en_US"
        },
        {
          "description" : "Une tasse de nectar frais pour attirer les colibris au jardin.",
          "displayName" : "Nectar sucré",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.nectar",
      "referenceName" : "Sweet Nectar",
      "type" : "Consumable"
    },
    {
      "displayPrice" : "2.99",
      "familyShareable" : false,
      "internalID" : "91B7D684",
      "localizations" : [
        {
          "description" : "A high-energy treat that keeps woodpeckers coming back all winter.",
          "displayName" : "Suet Cake",
          "locale" : "en_US"
        },
        {
          "description" : "Une friandise énergétique qui fait revenir les pics tout l'hiver.",
          "displayName" : "Pain de graisse",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.suetcake",
      "referenceName" : "Suet Cake",
      "type" : "Consumable"
    },
    {
      "displayPrice" : "3.99",
      "familyShareable" : false,
      "internalID" : "E5A2C7A5",
      "localizations" : [
        {
          "description" : "A bowl of dried mealworms, the bluebirds' favorite.",
          "displayName" : "Mealworm Feast",
          "locale" : "en_US"
        },
        {
          "description" : "Un bol de vers de farine séchés, le régal des merlebleus.",
          "displayName" : "Festin de vers de farine",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.mealworms",
      "referenceName" : "Mealworm Feast",
      "type" : "Consumable"
    },
    {
      "displayPrice" : "9.99",
      "familyShareable" : false,
      "internalID" : "3F6D18C6",
      "localizations" : [
        {
          "description" : "Seeds, suet, nectar and mealworms: a little of everything for every visitor.",
          "displayName" : "Backyard Feast Bundle",
          "locale" : "en_US"
        },
        {
          "description" : "Graines, graisse, nectar et vers : un peu de tout pour chaque visiteur.",
          "displayName" : "Festin du jardin",
          "locale" : "fr_FR"
        }
      ],
      "productID" : "com.example.backyardbirds.feastbundle",
      "referenceName" : "Backyard Feast Bundle",
      "type" : "Consumable"
    }
  ],
  "settings" : {
    "_billingGracePeriodEnabled" : true,
    "_failTransactionsEnabled" : false,
    "_locale" : "en_US",
    "_storeKitErrors" : [
      {
        "current" : null,
        "enabled" : false,
        "name" : "Load Products"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Purchase"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Verification"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "App Store Sync"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Subscription Status"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "App Transaction"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Manage Subscriptions Sheet"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Refund Request Sheet"
      },
      {
        "current" : null,
        "enabled" : false,
        "name" : "Offer Code Redeem Sheet"
      }
    ],
    "_storefront" : "USA",
    "_timeRate" : 0
  },
  "subscriptionGroups" : [
    {
      "id" : "BB0PASS1",
      "localizations" : [
        {
          "description" : "More backyards, more birds, more decorations.",
          "displayName" : "Backyard Birds Pass",
          "locale" : "en_US"
        },
        {
          "description" : "Plus de jardins, plus d'oiseaux, plus de décorations.",
          "displayName" : "Pass Backyard Birds",
          "locale" : "fr_FR"
        }
      ],
      "name" : "Backyard Birds Pass",
      "subscriptions" : [
        {
          "adHocOffers" : [
            {
              "displayPrice" : "24.99",
              "internalID" : "5B8E2F17",
              "numberOfPeriods" : 1,
              "offerID" : "com.example.backyardbirds.pass.premium.loyalty",
              "paymentMode" : "payUpFront",
              "referenceName" : "Loyal Birder Quarter",
              "subscriptionPeriod" : "P3M"
            }
          ],
          "codeOffers" : [

          ],
          "displayPrice" : "11.99",
          "familyShareable" : true,
          "groupNumber" : 1,
          "internalID" : "A8C41E08",
          "introductoryOffer" : {
            "internalID" : "0D9F3C28",
            "numberOfPeriods" : 1,
            "paymentMode" : "free",
            "subscriptionPeriod" : "P1M"
          },
          "localizations" : [
            {
              "description" : "Every backyard, every decoration, and rare visitors all year.",
              "displayName" : "Premium",
              "locale" : "en_US"
            },
            {
              "description" : "Tous les jardins, toutes les décorations et des visiteurs rares toute l'année.",
              "displayName" : "Premium",
              "locale" : "fr_FR"
            }
          ],
          "productID" : "com.example.backyardbirds.pass.premium",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Premium",
          "subscriptionGroupID" : "BB0PASS1",
          "type" : "RecurringSubscription",
          "winbackOffers" : [
            {
              "displayPrice" : "5.99",
              "internalID" : "6E2B7A39",
              "numberOfPeriods" : 2,
              "offerID" : "com.example.backyardbirds.pass.premium.welcomeback",
              "paymentMode" : "payAsYouGo",
              "referenceName" : "Welcome Back Birder",
              "subscriptionPeriod" : "P1M"
            }
          ]
        },
        {
          "adHocOffers" : [

          ],
          "codeOffers" : [
            {
              "eligibility" : [
                "new",
                "expired"
              ],
              "internalID" : "B3D5904A",
              "isStackable" : false,
              "paymentMode" : "free",
              "referenceName" : "Spring Birdwatch",
              "subscriptionPeriod" : "P1M"
            }
          ],
          "displayPrice" : "7.99",
          "familyShareable" : true,
          "groupNumber" : 2,
          "internalID" : "F17A6C5B",
          "introductoryOffer" : {
            "internalID" : "2C4E8D6C",
            "numberOfPeriods" : 1,
            "paymentMode" : "free",
            "subscriptionPeriod" : "P1W"
          },
          "localizations" : [
            {
              "description" : "Share your pass with up to five family members.",
              "displayName" : "Family",
              "locale" : "en_US"
            },
            {
              "description" : "Partagez votre pass avec jusqu'à cinq membres de votre famille.",
              "displayName" : "Famille",
              "locale" : "fr_FR"
            }
          ],
          "productID" : "com.example.backyardbirds.pass.family",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Family",
          "subscriptionGroupID" : "BB0PASS1",
          "type" : "RecurringSubscription",
          "winbackOffers" : [

          ]
        },
        {
          "adHocOffers" : [

          ],
          "codeOffers" : [

          ],
          "displayPrice" : "4.99",
          "familyShareable" : false,
          "groupNumber" : 3,
          "internalID" : "8E0B2D7D",
          "introductoryOffer" : {
            "internalID" : "D6A1F38E",
            "numberOfPeriods" : 1,
            "paymentMode" : "free",
            "subscriptionPeriod" : "P1W"
          },
          "localizations" : [
            {
              "description" : "Unlimited backyards and more decorations, just for you.",
              "displayName" : "Individual",
              "locale" : "en_US"
            },
            {
              "description" : "Des jardins illimités et plus de décorations, rien que pour vous.",
              "displayName" : "Individuel",
              "locale" : "fr_FR"
            }
          ],
          "productID" : "com.example.backyardbirds.pass.individual",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Individual",
          "subscriptionGroupID" : "BB0PASS1",
          "type" : "RecurringSubscription",
          "winbackOffers" : [

          ]
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
