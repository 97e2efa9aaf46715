// `import StoreKit` on Linux. On Apple platforms StoreKit brings Foundation with it and names its
// types `StoreKit.Transaction`, `StoreKit.Product`, …; this module does the same by re-exporting
// the OpenStoreKit client (and, through it, StoreKit's value types) and Foundation, so an app's
// StoreKit file compiles here unchanged.
@_exported import Foundation
@_exported import OpenStoreKit
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
