// StoreKit's value types come with the library: `import OpenStoreKit` is all an app needs.
@_exported import StoreKitTypes
