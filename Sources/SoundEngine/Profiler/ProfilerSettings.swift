/// The live profiler's link (docs/profiling.md): a Unix-domain socket that
/// `soundengine-top`, or any program speaking its newline-delimited JSON,
/// attaches to while the game runs to watch its session, voices, buses,
/// game syncs, notifications and render CPU.
///
/// Off by default: an engine that leaves it off opens no socket and starts no
/// thread. The environment variable `SOUNDENGINE_PROFILER=1`, read by
/// ``SoundEngine/initialize(_:_:)``, turns it on even when these settings
/// leave it off (QA can profile a shipped build), and
/// `SOUNDENGINE_PROFILER_EDITS=1` also allows edits; neither ever turns off
/// what the settings ask for.
///
/// ```swift
/// var settings = InitSettings()
/// settings.profiler = ProfilerSettings(enabled: true)
/// ```
public struct ProfilerSettings: Sendable, Hashable {
    /// Listen at `$XDG_RUNTIME_DIR/soundengine/<pid>.sock` (without
    /// `XDG_RUNTIME_DIR`: `/tmp/soundengine-<uid>/<pid>.sock`), for
    /// processes of the same user only. Default `false`.
    public var enabled: Bool
    /// Let a connected tool make live edits: set an RTPC or a state, a bus's
    /// volume, mute a bus. Requires ``enabled``. Default `false`: a profiler
    /// that only watches cannot change the game.
    public var allowsEdits: Bool

    /// The link `enabled` (default off), edits allowed when `allowsEdits` (default off).
    public init(enabled: Bool = false, allowsEdits: Bool = false) {
        self.enabled = enabled
        self.allowsEdits = allowsEdits
    }

    /// These settings with the environment's switches applied: `SOUNDENGINE_PROFILER=1`
    /// turns the link on, `SOUNDENGINE_PROFILER_EDITS=1` (with it, or with
    /// ``enabled``) allows edits. Never turns off what the settings ask for.
    func applyingEnvironment(_ environment: [String: String]) -> ProfilerSettings {
        var settings = self
        if environment["SOUNDENGINE_PROFILER"] == "1" { settings.enabled = true }
        if settings.enabled && environment["SOUNDENGINE_PROFILER_EDITS"] == "1" { settings.allowsEdits = true }
        return settings
    }
}
