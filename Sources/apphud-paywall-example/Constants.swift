import Foundation

/// The article's constants: the two subscriptions of the paywall and the app's shared secret.
/// Here they are the defaults of the command line (`--products`, `--shared-secret`), matching
/// `Tests/Fixtures/storekit1.storekit` sold as `com.example.paywall`.
let subscription_1 = "sk1.weekly"
let subscription_2 = "sk1.monthly"
let shared_secret = "0penStoreKitPaywallSecret42"
let terms_text = """
Premium subscription is required to get access to all features. It renews automatically with the price and duration \
given above unless it is cancelled at least 24 hours before the end of the current period. You can manage and cancel \
your subscriptions in your account settings.
"""
