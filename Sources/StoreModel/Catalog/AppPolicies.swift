/// `appPolicies`: the EULA and privacy-policy texts and links that subscription store views show.
public struct AppPolicies: Sendable, Equatable {
    /// The custom EULA text; empty means Apple's standard EULA.
    public var eula: String
    public var policies: [Policy]

    /// One localized policy (`policyText`, `policyURL`).
    public struct Policy: Sendable, Equatable {
        public var locale: String
        public var text: String
        public var url: String

        public init(locale: String, text: String, url: String) {
            self.locale = locale
            self.text = text
            self.url = url
        }
    }

    public init(eula: String = "", policies: [Policy] = []) {
        self.eula = eula
        self.policies = policies
    }
}
