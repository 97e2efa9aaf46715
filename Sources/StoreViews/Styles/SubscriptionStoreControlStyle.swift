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

/// What a subscription store control style draws with, as Apple's
/// `SubscriptionStoreControlStyleConfiguration`: the plans and the subscriber's renewal choice.
public struct SubscriptionStoreControlStyleConfiguration {
    /// One plan as the store offers it.
    public struct Option {
        /// The plan's product.
        public let subscription: Product
        /// How the plan relates to the subscriber's current one; nil for someone not subscribed.
        public let relationship: Product.SubscriptionRelationship?
        /// True for the subscriber's current plan, which the built-in styles show as "Current Plan".
        public let isCurrent: Bool
        /// The offer the customer is eligible for and that a purchase of this option applies
        /// (iOS 18's `Option.activeOffer`): `preferredSubscriptionOffer`'s choice, else the best
        /// eligible win-back offer, else the eligible intro offer. Show its terms with the option.
        public let activeOffer: Product.SubscriptionOffer?
        /// The active offer when it is the intro offer (the name this type used before iOS 18's).
        public var eligibleIntroOffer: Product.SubscriptionOffer? { activeOffer?.type == .introductory ? activeOffer : nil }
        /// The plan's product ID, which identifies the option.
        public var id: String { subscription.id }
        /// The plan's name from the catalog.
        public var displayName: String { subscription.displayName }
        /// The plan's price, formatted for the storefront.
        public var displayPrice: String { subscription.displayPrice }
    }
    /// The plans to show, after `visibleRelationships` has filtered them.
    public let options: [Option]
    /// Every plan of the store in display order, before relationships filter them.
    public let allOptions: [Product]
    /// The subscription group's name, e.g. for the picker's "Choose a … plan" legend.
    public let groupDisplayName: String
    /// The plan that renews at the next billing cycle, for an active subscriber.
    public let autoRenewPreference: Product?
    /// Whether to show plan descriptions, from `productDescription(_:)`.
    public let descriptionVisibility: Visibility
}

/// The built-in control styles.
public struct StandardSubscriptionStoreControlStyle: SubscriptionStoreControlStyle, Sendable {
    /// The built-in styles by name; the name also ends the form's `sk-controls-` CSS class.
    public enum Kind: String, Sendable, CaseIterable { case automatic, picker, prominentPicker, buttons, compactPicker, pagedPicker, pagedProminentPicker }
    /// Which built-in style this is.
    public let kind: Kind
    /// Draws nothing: the store draws the built-in styles itself from `kind`.
    public func makeBody(configuration: Configuration) -> some View { EmptyView() }
}

extension SubscriptionStoreControlStyle where Self == StandardSubscriptionStoreControlStyle {
    /// Mirrors `SubscriptionStoreControlStyle.automatic`: a picker for several plans, buttons for one.
    public static var automatic: Self { .init(kind: .automatic) }
    /// Mirrors `.picker`: a radio group of plans and one subscribe button.
    public static var picker: Self { .init(kind: .picker) }
    /// Mirrors `.prominentPicker`: the picker with roomier plans and a larger price.
    public static var prominentPicker: Self { .init(kind: .prominentPicker) }
    /// Mirrors `.buttons`: a subscribe button per plan.
    public static var buttons: Self { .init(kind: .buttons) }
    /// Mirrors `.compactPicker`: the plans side by side, scrolling sideways when they do not fit.
    public static var compactPicker: Self { .init(kind: .compactPicker) }
    /// Mirrors `.pagedPicker`: nearly full-width plans that snap into place as they scroll sideways.
    public static var pagedPicker: Self { .init(kind: .pagedPicker) }
    /// Mirrors `.pagedProminentPicker`: the paged picker with roomier plans.
    public static var pagedProminentPicker: Self { .init(kind: .pagedProminentPicker) }
}

/// A control style with its type erased, as the environment stores it; a built-in one is kept by kind.
public struct AnySubscriptionStoreControlStyle {
    let standardKind: StandardSubscriptionStoreControlStyle.Kind?
    let make: ((SubscriptionStoreControlStyleConfiguration) -> AnyView)?

    /// Wraps any style; built-in styles are drawn by the store, custom ones through `makeBody`.
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
    /// The subscribe button for `option`, labelled per `subscriptionStoreButtonLabel(_:)`.
    public init(_ option: SubscriptionStoreControlStyleConfiguration.Option) { self.option = option }
    /// Renders the plan's subscribe button, or "Current Plan" for the subscriber's plan.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        SubscriptionControls.planButton(option, context, html, label: context.environment.subscriptionStoreButtonLabel)
    }
}

extension View {
    /// Chooses how subscription stores inside this view lay out their plans.
    public func subscriptionStoreControlStyle(_ style: some SubscriptionStoreControlStyle) -> EnvironmentWriter<Self> {
        let erased = AnySubscriptionStoreControlStyle(style)
        return transformEnvironment { $0.subscriptionStoreControlStyle = erased }
    }

    /// Chooses what the subscribe buttons of stores inside this view say.
    public func subscriptionStoreButtonLabel(_ label: SubscriptionStoreButtonLabel) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreButtonLabel = label }
    }

    /// An icon beside each plan, chosen per product and its subscription info (e.g. by level).
    public func subscriptionStoreControlIcon<Icon: View>(@ViewBuilder icon: @escaping (Product, Product.SubscriptionInfo) -> Icon) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.subscriptionStoreControlIcon = { AnyView(icon($0, $1)) } }
    }

    /// The fill behind each plan in the pickers of stores inside this view.
    public func subscriptionStorePickerItemBackground(_ style: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(style)
        return transformEnvironment {
            $0.subscriptionStorePickerItemBackground = erased
            $0.subscriptionStorePickerItemShape = nil  // "Omit the shape parameter to use the default shape."
        }
    }

    /// Mirrors `subscriptionStorePickerItemBackground(_:in:)` (iOS 18): "Sets the background shape
    /// and style for subscription store view picker items within a view" — `.rect(cornerRadius:)`,
    /// `.capsule`, `Rectangle()` or `Circle()`.
    public func subscriptionStorePickerItemBackground(_ backgroundStyle: some ShapeStyle, in shape: some Shape) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(backgroundStyle), radius = shape.cssBorderRadius
        return transformEnvironment {
            $0.subscriptionStorePickerItemBackground = erased
            $0.subscriptionStorePickerItemShape = radius
        }
    }

    /// The background of the store's controls area (`.clear` lets a full-height background show).
    public func backgroundStyle(_ style: some ShapeStyle) -> EnvironmentWriter<Self> {
        let erased = AnyShapeStyle(style)
        return transformEnvironment { $0.backgroundStyle = erased }
    }
}
