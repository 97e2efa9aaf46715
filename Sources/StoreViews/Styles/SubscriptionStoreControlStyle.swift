import StoreKitTypes
import StoreShared

/// How a subscription store lets people pick a plan. The built-in styles are a radio group with one
/// subscribe button (`picker`, `prominentPicker`, `compactPicker`, `pagedPicker`) or a button per
/// plan (`buttons`). A custom style draws from `SubscriptionStoreControlStyleConfiguration`.
public protocol SubscriptionStoreControlStyle {
    associatedtype Body: View
    typealias Configuration = SubscriptionStoreControlStyleConfiguration
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

public struct SubscriptionStoreControlStyleConfiguration {
    /// One plan as the store offers it.
    public struct Option {
        public let subscription: Product
        public let relationship: Product.SubscriptionRelationship?
        public let isCurrent: Bool
        /// The offer the customer is eligible for and that a purchase of this option applies
        /// (iOS 18's `Option.activeOffer`): `preferredSubscriptionOffer`'s choice, else the best
        /// eligible win-back offer, else the eligible intro offer. Show its terms with the option.
        public let activeOffer: Product.SubscriptionOffer?
        /// The active offer when it is the intro offer (the name this type used before iOS 18's).
        public var eligibleIntroOffer: Product.SubscriptionOffer? { activeOffer?.type == .introductory ? activeOffer : nil }
        public var id: String { subscription.id }
        public var displayName: String { subscription.displayName }
        public var displayPrice: String { subscription.displayPrice }
    }
    public let options: [Option]
    public let allOptions: [Product]
    public let groupDisplayName: String
    /// The plan that renews at the next billing cycle, for an active subscriber.
    public let autoRenewPreference: Product?
    public let descriptionVisibility: Visibility
}

/// The built-in control styles.
public struct StandardSubscriptionStoreControlStyle: SubscriptionStoreControlStyle, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case automatic, picker, prominentPicker, buttons, compactPicker, pagedPicker, pagedProminentPicker }
    public let kind: Kind
    public func makeBody(configuration: Configuration) -> some View { EmptyView() }
}

extension SubscriptionStoreControlStyle where Self == StandardSubscriptionStoreControlStyle {
    public static var automatic: Self { .init(kind: .automatic) }
    public static var picker: Self { .init(kind: .picker) }
    public static var prominentPicker: Self { .init(kind: .prominentPicker) }
    public static var buttons: Self { .init(kind: .buttons) }
    public static var compactPicker: Self { .init(kind: .compactPicker) }
    public static var pagedPicker: Self { .init(kind: .pagedPicker) }
    public static var pagedProminentPicker: Self { .init(kind: .pagedProminentPicker) }
}

public struct AnySubscriptionStoreControlStyle {
    let standardKind: StandardSubscriptionStoreControlStyle.Kind?
    let make: ((SubscriptionStoreControlStyleConfiguration) -> AnyView)?

    public init<S: SubscriptionStoreControlStyle>(_ style: S) {
        if let standard = style as? StandardSubscriptionStoreControlStyle {
            standardKind = standard.kind
            make = nil
        } else {
            standardKind = nil
            make = { AnyView(style.makeBody(configuration: $0)) }
        }
    }
}

/// The standard subscribe button for one option, for custom control styles.
public struct SubscriptionStoreButton: PrimitiveView {
    let option: SubscriptionStoreControlStyleConfiguration.Option
    public init(_ option: SubscriptionStoreControlStyleConfiguration.Option) { self.option = option }
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        SubscriptionControls.planButton(option, context, html, label: context.environment.subscriptionStoreButtonLabel)
    }
}

extension View {
    public func subscriptionStoreControlStyle(_ style: some SubscriptionStoreControlStyle) -> EnvironmentWriter<Self> {
        let erased = AnySubscriptionStoreControlStyle(style)
        return transformEnvironment { $0.subscriptionStoreControlStyle = erased }
    }

    public func subscriptionStoreButtonLabel(_ label: SubscriptionStoreButtonLabel) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreButtonLabel = label }
    }

    /// An icon beside each plan, chosen per product and its subscription info (e.g. by level).
    public func subscriptionStoreControlIcon<Icon: View>(@ViewBuilder icon: @escaping (Product, Product.SubscriptionInfo) -> Icon) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreControlIcon = { AnyView(icon($0, $1)) } }
    }

    public func subscriptionStorePickerItemBackground(_ style: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(style)
        return transformEnvironment { $0.subscriptionStorePickerItemBackground = erased }
    }

    /// The background of the store's controls area (`.clear` lets a full-height background show).
    public func backgroundStyle(_ style: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(style)
        return transformEnvironment { $0.backgroundStyle = erased }
    }
}
