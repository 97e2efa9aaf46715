/// A customer's app receipt (StoreKit 1's `appStoreReceiptURL` file), as its fields. The
/// attribute type numbers are Apple's, from "Receipt Fields" in the Receipt Validation
/// Programming Guide (developer.apple.com/library/archive/releasenotes/General/
/// ValidateAppStoreReceipt/Chapters/ReceiptFields.html); Apple's `ReceiptUtility` reads 17, 1703
/// and 1705. Dates are milliseconds since 1970, written into the receipt as RFC 3339 IA5STRINGs.
public struct AppReceipt: Sendable, Equatable {
    /// The app's bundle ID: Apple's "Bundle Identifier" (type 2); a receipt without one fails to read.
    public var bundleId: String
    /// The installed version: Apple's "App Version" (type 3), `application_version` in `/verifyReceipt`.
    public var applicationVersion: String
    /// The version first bought or downloaded, taken from the AppTransaction (type 19).
    public var originalApplicationVersion: String
    /// When the receipt was made, by the world's clock: `receipt_creation_date` (type 12).
    public var creationDate: Int64
    /// The AppTransaction's original purchase date, for `/verifyReceipt`'s `original_purchase_date`.
    /// `Field` has no type for it, so it is not in the signed payload and `read` leaves it nil.
    public var originalPurchaseDate: Int64?
    /// One entry per purchase (type 17). The engine leaves out finished consumables, as Apple's receipts do.
    public var inApp: [InAppReceipt]

    /// Dates in milliseconds since 1970; `ReceiptSigner` writes them as RFC 3339 text.
    public init(bundleId: String, applicationVersion: String, originalApplicationVersion: String, creationDate: Int64,
                originalPurchaseDate: Int64? = nil, inApp: [InAppReceipt]) {
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
        self.creationDate = creationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.inApp = inApp
    }

    /// ASN.1 field types of the app receipt ("App Receipt Fields").
    public enum Field {
        /// Apple's "Bundle Identifier"; `bundle_id` in `/verifyReceipt`.
        public static let bundleId = 2            // UTF8STRING
        /// Apple's "App Version"; `application_version` in `/verifyReceipt`.
        public static let applicationVersion = 3  // UTF8STRING
        /// Apple's "Opaque Value": written as the first 16 bytes of SHA-256 of the bundle ID, so it is
        /// stable per app. Never read back.
        public static let opaqueValue = 4         // bytes
        /// Apple's "SHA-1 Hash", which a device checks against its own identifier. Listed to complete
        /// Apple's table: `ReceiptSigner` neither writes nor reads it.
        public static let sha1Hash = 5            // 20 bytes
        /// Apple's "Receipt Creation Date"; `receipt_creation_date` in `/verifyReceipt`.
        public static let creationDate = 12       // IA5STRING, RFC 3339
        /// Apple's "In-App Purchase Receipt", the field `ReceiptUtility` reads; `in_app` in `/verifyReceipt`.
        public static let inAppPurchase = 17      // SET of in-app attributes, one per purchase
        /// Apple's "Original Application Version"; `original_application_version` in `/verifyReceipt`.
        public static let originalApplicationVersion = 19  // UTF8STRING
    }
}

/// One in-app purchase in an app receipt ("In-App Purchase Receipt Fields").
public struct InAppReceipt: Sendable, Equatable {
    /// How many were bought (1701); 1 when a receipt leaves it out.
    public var quantity: Int
    /// The product bought (1702); `product_id` in `/verifyReceipt`.
    public var productId: String
    /// This purchase's transaction (1703), one of the fields Apple's `ReceiptUtility` reads.
    public var transactionId: String
    /// The first transaction of the purchase chain (1705), read by `ReceiptUtility`; a subscription's
    /// renewals all share it.
    public var originalTransactionId: String
    /// When this transaction happened (1704), in milliseconds since 1970.
    public var purchaseDate: Int64
    /// When the original transaction happened (1706), in milliseconds since 1970.
    public var originalPurchaseDate: Int64
    /// Apple's "Subscription Expiration Date" (1708); nil leaves the field out of the payload.
    public var expiresDate: Int64?
    /// Apple's "Web Order Line Item ID" (1711), an INTEGER here though the JWS transaction carries it as text.
    public var webOrderLineItemId: Int64?
    /// Apple's "Cancellation Date" (1712), filled from the transaction's `revocationDate`; nil leaves it out.
    public var cancellationDate: Int64?

    /// Optional fields default to nil, which leaves them out of the signed payload.
    public init(quantity: Int, productId: String, transactionId: String, originalTransactionId: String, purchaseDate: Int64,
                originalPurchaseDate: Int64, expiresDate: Int64? = nil, webOrderLineItemId: Int64? = nil, cancellationDate: Int64? = nil) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate
    }

    /// ASN.1 field types inside each type-17 SET ("In-App Purchase Receipt Fields").
    public enum Field {
        /// Apple's "Quantity"; `quantity` in `/verifyReceipt`.
        public static let quantity = 1701               // INTEGER
        /// Apple's "Product Identifier"; `product_id` in `/verifyReceipt`.
        public static let productId = 1702              // UTF8STRING
        /// Apple's "Transaction Identifier"; `transaction_id` in `/verifyReceipt`.
        public static let transactionId = 1703          // UTF8STRING
        /// Apple's "Purchase Date"; `purchase_date` in `/verifyReceipt`.
        public static let purchaseDate = 1704           // IA5STRING
        /// Apple's "Original Transaction Identifier"; `original_transaction_id` in `/verifyReceipt`.
        public static let originalTransactionId = 1705  // UTF8STRING
        /// Apple's "Original Purchase Date"; `original_purchase_date` in `/verifyReceipt`.
        public static let originalPurchaseDate = 1706   // IA5STRING
        /// Apple's "Subscription Expiration Date"; `expires_date` in `/verifyReceipt`.
        public static let expiresDate = 1708            // IA5STRING
        /// Apple's "Web Order Line Item ID"; `web_order_line_item_id` in `/verifyReceipt`.
        public static let webOrderLineItemId = 1711     // INTEGER
        /// Apple's "Cancellation Date"; `cancellation_date` in `/verifyReceipt`.
        public static let cancellationDate = 1712       // IA5STRING
    }
}
