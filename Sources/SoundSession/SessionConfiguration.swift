/// The audio-session configuration a game asks for: category, options, mode,
/// route-sharing policy, activation options and the Wwise behaviour flags.
///
/// This is `PlatformInitSettings.audioSession` (Wwise's
/// `AkAudioSessionProperties`) and the argument of
/// `changeAudioSessionProperties`. Check a value with
/// ``AudioSessionPolicy/validate(_:)``.
///
/// ```swift
/// var session = SessionConfiguration()          // soloAmbient, no options, default mode
/// session.category = .playAndRecord
/// session.categoryOptions = [.defaultToSpeaker, .allowBluetooth]
/// session.mode = .gameChat
/// ```
public struct SessionConfiguration: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The category. Default: ``Category/soloAmbient``, as on iOS.
    public var category: Category
    /// The options you set. Default: none. Options do not carry over when the
    /// category changes; what the category and mode add is ``effectiveOptions``.
    public var categoryOptions: CategoryOptions
    /// The mode. Default: ``Mode/default``.
    public var mode: Mode
    /// The route-sharing policy. Default: ``RouteSharingPolicy/default``.
    public var routeSharingPolicy: RouteSharingPolicy
    /// Options the engine passes when it deactivates the session (at
    /// terminate and around `changeAudioSessionProperties`). Default: none.
    public var setActiveOptions: SetActiveOptions
    /// Wwise-only behaviour flags. Default: none (playback, record,
    /// playAndRecord and multiRoute keep rendering in the background).
    public var behavior: SessionBehavior

    /// Creates a configuration; every argument has the documented default.
    public init(
        category: Category = .soloAmbient,
        categoryOptions: CategoryOptions = [],
        mode: Mode = .default,
        routeSharingPolicy: RouteSharingPolicy = .default,
        setActiveOptions: SetActiveOptions = [],
        behavior: SessionBehavior = []
    ) {
        self.category = category
        self.categoryOptions = categoryOptions
        self.mode = mode
        self.routeSharingPolicy = routeSharingPolicy
        self.setActiveOptions = setActiveOptions
        self.behavior = behavior
    }

    private enum CodingKeys: String, CodingKey {
        case category, categoryOptions, mode, routeSharingPolicy, setActiveOptions, behavior
    }

    /// Decodes a configuration; a missing key takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SessionConfiguration()
        category = try container.decodeIfPresent(Category.self, forKey: .category) ?? defaults.category
        categoryOptions =
            try container.decodeIfPresent(CategoryOptions.self, forKey: .categoryOptions) ?? defaults.categoryOptions
        mode = try container.decodeIfPresent(Mode.self, forKey: .mode) ?? defaults.mode
        routeSharingPolicy =
            try container.decodeIfPresent(RouteSharingPolicy.self, forKey: .routeSharingPolicy)
            ?? defaults.routeSharingPolicy
        setActiveOptions =
            try container.decodeIfPresent(SetActiveOptions.self, forKey: .setActiveOptions) ?? defaults.setActiveOptions
        behavior = try container.decodeIfPresent(SessionBehavior.self, forKey: .behavior) ?? defaults.behavior
    }

    /// The fields that differ from their defaults, and always category, options and mode.
    public var description: String {
        var parts = ["\(category)", "options \(categoryOptions)", "mode \(mode)"]
        if routeSharingPolicy != .default { parts.append("policy \(routeSharingPolicy)") }
        if !setActiveOptions.isEmpty { parts.append("setActive \(setActiveOptions)") }
        if !behavior.isEmpty { parts.append("behavior \(behavior)") }
        return parts.joined(separator: ", ")
    }
}
