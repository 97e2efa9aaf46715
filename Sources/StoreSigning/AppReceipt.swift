/// A customer's app receipt (StoreKit 1's `appStoreReceiptURL` file), as its fields. The
/// attribute type numbers are Apple's, from "Receipt Fields" in the Receipt Validation
/// Programming Guide (developer.apple.com/library/archive/releasenotes/General/
/// ValidateAppStoreReceipt/Chapters/ReceiptFields.html); Apple's `ReceiptUtility` reads 17, 1703
/// and 1705. Dates are milliseconds since 1970, written into the receipt as RFC 3339 IA5STRINGs.
public struct AppReceipt: Sendable, Equatable {
    public var bundleId: String
    public var applicationVersion: String
    public var originalApplicationVersion: String
    public var creationDate: Int64
    public var originalPurchaseDate: Int64?
    public var inApp: [InAppReceipt]

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
        public static let bundleId = 2            // UTF8STRING
        public static let applicationVersion = 3  // UTF8STRING
        public static let opaqueValue = 4         // bytes
        public static let sha1Hash = 5            // 20 bytes
        public static let creationDate = 12       // IA5STRING, RFC 3339
        public static let inAppPurchase = 17      // SET of in-app attributes, one per purchase
        public static let originalApplicationVersion = 19  // UTF8STRING
    }
}

/// One in-app purchase in an app receipt ("In-App Purchase Receipt Fields").
public struct InAppReceipt: Sendable, Equatable {
    public var quantity: Int
    public var productId: String
    public var transactionId: String
    public var originalTransactionId: String
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var expiresDate: Int64?
    public var webOrderLineItemId: Int64?
    public var cancellationDate: Int64?

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

    public enum Field {
        public static let quantity = 1701               // INTEGER
        public static let productId = 1702              // UTF8STRING
        public static let transactionId = 1703          // UTF8STRING
        public static let purchaseDate = 1704           // IA5STRING
        public static let originalTransactionId = 1705  // UTF8STRING
        public static let originalPurchaseDate = 1706   // IA5STRING
        public static let expiresDate = 1708            // IA5STRING
        public static let webOrderLineItemId = 1711     // INTEGER
        public static let cancellationDate = 1712       // IA5STRING
    }
}
