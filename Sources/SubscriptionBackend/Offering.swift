import Foundation

/// What the app's paywall shows, configured in the backend instead of shipped in the app: a named
/// set of packages (products) with copy and the plan to preselect. RevenueCat, Apphud and Adapty
/// all serve paywalls this way, so copy and products change, and are A/B tested
/// (`Experiment`), without an app release.
public struct Offering: Codable, Sendable, Equatable {
    /// Unique per app: `default`, `spring_sale`. Letters, digits, `_`, `-`, `.`, `$`; 1–64 characters.
    public var id: String
    /// For the team, not the customer.
    public var description: String?
    /// Shown in order.
    public var packages: [Package]
    /// The package the paywall selects first; one of `packages`' IDs.
    public var preselectedPackage: String?
    /// The paywall's copy: `title`, `subtitle`, `cta`, or any key the app reads. String values.
    public var metadata: [String: String]

    /// One choice on the paywall: an identifier the app lays out by (`annual`, `$rc_monthly`) and the product it buys.
    public struct Package: Codable, Sendable, Equatable {
        public var id: String
        public var productId: String

        public init(id: String, productId: String) {
            self.id = id
            self.productId = productId
        }
    }

    public init(id: String, description: String? = nil, packages: [Package], preselectedPackage: String? = nil,
                metadata: [String: String] = [:]) {
        self.id = id
        self.description = description
        self.packages = packages
        self.preselectedPackage = preselectedPackage
        self.metadata = metadata
    }

    enum CodingKeys: String, CodingKey { case id, description, packages, preselectedPackage, metadata }

    /// `description`, `preselectedPackage` and `metadata` may be left out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        packages = try c.decode([Package].self, forKey: .packages)
        preselectedPackage = try c.decodeIfPresent(String.self, forKey: .preselectedPackage)
        metadata = try c.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
    }

    /// Absent values are written as null, so every field is always there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(description, forKey: .description)
        try c.encode(packages, forKey: .packages)
        try c.encode(preselectedPackage, forKey: .preselectedPackage)
        try c.encode(metadata, forKey: .metadata)
    }

    static let maxPackages = 20
    static let maxMetadata = 30
    static let maxText = 500

    /// An identifier of an offering, package or experiment: 1–64 of letters, digits, `_`, `-`, `.`, `$`.
    static func validIdentifier(_ id: String) -> Bool {
        (1...64).contains(id.unicodeScalars.count)
            && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-.$".unicodeScalars.contains($0)) }
    }

    /// The first rule the offering breaks, said with its JSON path; nil when it keeps them all.
    /// `meaning` is true for the rules openapi.json cannot state (a package ID used twice, a
    /// preselection that is no package's): a 422 rather than a 400.
    func problem() -> (text: String, meaning: Bool)? {
        if let text = formProblem() { return (text, false) }
        var seen = Set<String>()
        for (index, package) in packages.enumerated() where !seen.insert(package.id).inserted {
            return ("$.packages[\(index)].id: \(package.id) is used twice", true)
        }
        if let preselectedPackage, !seen.contains(preselectedPackage) {
            return ("$.preselectedPackage: \(preselectedPackage) is not one of the packages", true)
        }
        return nil
    }

    private func formProblem() -> String? {
        guard Self.validIdentifier(id) else { return "$.id: 1–64 letters, digits, _, -, . or $" }
        guard (1...Self.maxPackages).contains(packages.count) else { return "$.packages: 1–\(Self.maxPackages) packages" }
        for (index, package) in packages.enumerated() {
            guard Self.validIdentifier(package.id) else { return "$.packages[\(index)].id: 1–64 letters, digits, _, -, . or $" }
            guard (1...200).contains(package.productId.unicodeScalars.count),
                  !package.productId.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return "$.packages[\(index)].productId: 1–200 characters without control characters"
            }
        }
        guard metadata.count <= Self.maxMetadata else { return "$.metadata: at most \(Self.maxMetadata) keys" }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard (1...40).contains(key.unicodeScalars.count), value.unicodeScalars.count <= Self.maxText else {
                return "$.metadata.\(key): keys of 1–40 characters, values up to \(Self.maxText)"
            }
        }
        if let description, description.unicodeScalars.count > Self.maxText { return "$.description: up to \(Self.maxText) characters" }
        return nil
    }
}

/// What `GET /v1/customers/{id}/offerings` answers: the offering this customer's paywall shows
/// (`current`: the app's current one, or the customer's variant while an experiment runs), every
/// offering of the app, and the experiment the customer is in.
public struct CustomerOfferings: Codable, Sendable, Equatable {
    public var current: Offering?
    public var offerings: [Offering]
    public var experiment: Enrollment?

    /// A customer's place in an experiment.
    public struct Enrollment: Codable, Sendable, Equatable {
        public var id: String
        /// `control` or `treatment`.
        public var variant: String
        public var offeringId: String
        public var enrolledAt: Int64
    }

    /// Absent values are written as null, so every field is always there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(current, forKey: .current)
        try c.encode(offerings, forKey: .offerings)
        try c.encode(experiment, forKey: .experiment)
    }
}
