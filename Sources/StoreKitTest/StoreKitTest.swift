// StoreKitTest on Linux: `SKTestSession` hosts an isolated store in the test's own process.
@_exported import StoreKit
