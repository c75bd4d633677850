package import SoundEffects

// The content model: what a sound designer writes in a bank file (docs/banks.md),
// after parsing and validation. Plain values; every name a definition uses
// has been checked to resolve when a `Bank` exists (BankParser guarantees it).
// The engine (SoundEngine/Content) turns these into voices, bus volumes and
// parameter curves.
//
// Units, chosen for a designer who knows Wwise: volumes in dB (0 = unchanged),
// pitch in cents (1200 = an octave), times in seconds (Duration in Swift),
// distances in game units, low-pass as a cut-off frequency in Hz.

/// A 32-bit ID derived from a name, the way Wwise derives `AkUniqueID`s: the
/// FNV-1 hash of the name's lowercase UTF-8 bytes. The same name gives the
/// same ID in every bank and every run, so game code can store IDs.
package struct ContentID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The hash value.
    package let rawValue: UInt32

    /// Wraps a raw ID (for IDs a game stored or generated).
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The ID of `name` (FNV-1, 32-bit, over the lowercased UTF-8 bytes).
    ///
    /// An ASCII name (nearly every name) is lowercased byte by byte as it is
    /// hashed: no copy, no Unicode tables. That is the same bytes
    /// `lowercased()` gives, which a name with any other character goes
    /// through. (Events are posted by name on game threads: this is most of
    /// what a cold `postEvent` used to cost, docs/performance.md.)
    package init(_ name: String) { rawValue = Self.fnv1(name) }

    private static func fnv1(_ name: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            guard byte < 0x80 else { return fnv1(lowercasing: name) }
            hash = hash &* 16_777_619
            hash ^= UInt32(asciiLowercased(byte))
        }
        return hash
    }

    /// An ASCII byte lowercased ('A'…'Z' to 'a'…'z'; every other byte as it is).
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte &+ 0x20 : byte
    }

    private static func fnv1(lowercasing name: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.lowercased().utf8 {
            hash = hash &* 16_777_619
            hash ^= UInt32(byte)
        }
        return hash
    }

    /// Whether two names are the same ignoring case, as their IDs are
    /// (ASCII compared byte by byte; any other character through `lowercased()`).
    package static func sameName(_ a: String, _ b: String) -> Bool {
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil):
                return true
            case (let x?, let y?) where x < 0x80 && y < 0x80:
                if asciiLowercased(x) != asciiLowercased(y) { return false }
            case (let x?, let y?) where x >= 0x80 || y >= 0x80:
                return a.lowercased() == b.lowercased()
            default:
                return false  // one ended first, the other had only ASCII left: different
            }
        }
    }

    package var description: String { "ID \(rawValue)" }
    package static func < (a: ContentID, b: ContentID) -> Bool { a.rawValue < b.rawValue }
}

/// A piecewise curve through points sorted by `x`; between points it follows
/// `shape`, outside them it holds the first or last `y`.
package struct Curve: Sendable, Hashable {
    /// How the curve moves between two points.
    package enum Shape: String, Sendable, Hashable, CaseIterable {
        /// Straight line.
        case linear
        /// Holds the left point's `y` until the next point.
        case constant
        /// Smooth S (smoothstep) between the points.
        case sCurve
    }

    /// The points, `x` strictly increasing; at least one.
    package var points: [(x: Double, y: Double)]
    /// The shape between points.
    package var shape: Shape

    /// Creates a curve; the parser has checked the points are sorted and finite.
    package init(points: [(x: Double, y: Double)], shape: Shape = .linear) {
        self.points = points
        self.shape = shape
    }

    /// The curve's value at `x`.
    package func value(at x: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if x <= first.x { return first.y }
        if x >= last.x { return last.y }
        var lo = 0, hi = points.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if points[mid].x <= x { lo = mid } else { hi = mid }
        }
        let a = points[lo], b = points[hi]
        var t = (x - a.x) / (b.x - a.x)
        switch shape {
        case .linear: break
        case .constant: return a.y
        case .sCurve: t = t * t * (3 - 2 * t)
        }
        return a.y + (b.y - a.y) * t
    }

    package static func == (a: Curve, b: Curve) -> Bool {
        a.shape == b.shape && a.points.count == b.points.count
            && zip(a.points, b.points).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(shape)
        for p in points {
            hasher.combine(p.x)
            hasher.combine(p.y)
        }
    }
}

/// What happens to a voice that the voice limit (``BankSound/priority``)
/// pushes out.
package enum VirtualVoiceBehavior: String, Sendable, Hashable, CaseIterable {
    /// The voice is stopped (with the de-click fade) and its event may end.
    case kill
    /// The voice goes silent but keeps its place in time, and is heard again,
    /// in sync, where it would have been, when it ranks among the audible
    /// again (Wwise's "play from elapsed time"). Banks may also say `"resume"`,
    /// its name before "restart" existed.
    case `continue`
    /// The voice goes silent and holds at its start; it plays from the
    /// beginning when it ranks among the audible again (Wwise's "play from
    /// beginning").
    case restart
}

/// A playable sound: one audio file and how it plays.
package struct BankSound: Sendable, Hashable {
    /// The name (the key in `"sounds"`).
    package var name: String
    /// The audio file, resolved to an absolute path (inside the bank's folder
    /// unless the game allowed otherwise).
    package var file: String
    /// Streamed from disk (long music) rather than decoded into memory.
    package var stream: Bool
    /// Repeats until stopped.
    package var loop: Bool
    /// Volume in dB, -96…+24 (0 = as recorded).
    package var volumeDB: Double
    /// Pitch offset in cents, -2400…+2400.
    package var pitchCents: Double
    /// The bus it plays on (a bus of this bank, or `"master"`).
    package var bus: String
    /// The attenuation (distance curves) it uses, or `nil` for none (2D).
    package var attenuation: String?
    /// 0…100; when voices run out the lowest-priority, then quietest, voices
    /// become virtual.
    package var priority: Int
    /// What a voice of this sound does when it loses its slot.
    package var virtualBehavior: VirtualVoiceBehavior
    /// Named points in the sound (seconds from its start, in the file's own
    /// time), sorted by time: a voice crossing one reports an
    /// `EventCallback.marker` (Wwise's marker callback). Every lap of a
    /// looping voice crosses them again.
    package var markers: [BankMarker]
    /// Its level in the LFE channel of a surround output, in dB relative to
    /// its voice's volume (-96…+24), or `nil` (the default) for none: only
    /// sounds that say so reach the LFE. Stereo outputs have no LFE.
    package var lfeDB: Double?
    /// Its own sends to aux buses (Wwise's user-defined auxiliary sends), at
    /// most ``BankLimits/auxSends``, each to a different aux bus.
    package var auxSends: [BankAuxSend]

    package init(
        name: String, file: String, stream: Bool = false, loop: Bool = false, volumeDB: Double = 0,
        pitchCents: Double = 0, bus: String = "master", attenuation: String? = nil, priority: Int = 50,
        virtualBehavior: VirtualVoiceBehavior = .kill, markers: [BankMarker] = [], lfeDB: Double? = nil,
        auxSends: [BankAuxSend] = []
    ) {
        self.lfeDB = lfeDB
        self.auxSends = auxSends
        self.markers = markers.sorted { $0.time < $1.time }
        self.name = name
        self.file = file
        self.stream = stream
        self.loop = loop
        self.volumeDB = volumeDB
        self.pitchCents = pitchCents
        self.bus = bus
        self.attenuation = attenuation
        self.priority = priority
        self.virtualBehavior = virtualBehavior
    }
}

/// A sound's send to an aux bus: its voices' output (after their volume,
/// pan and filter) at `volumeDB` also goes into the bus.
package struct BankAuxSend: Sendable, Hashable {
    /// An aux bus (``BankBus/aux``) of this bank or one loaded earlier.
    package var bus: String
    /// The send's level in dB, -96…+24.
    package var volumeDB: Double

    package init(bus: String, volumeDB: Double = 0) {
        self.bus = bus
        self.volumeDB = volumeDB
    }
}

/// A named point in a sound (Wwise marker / WAV cue).
package struct BankMarker: Sendable, Hashable {
    /// The name the marker callback carries.
    package var name: String
    /// Seconds from the start of the sound file (0…3600).
    package var time: Double

    package init(name: String, time: Double) {
        self.name = name
        self.time = time
    }
}

/// A container: picks or sequences its children (sounds or other
/// containers; both share one namespace in a bank) each time it is played.
package struct BankContainer: Sendable, Hashable {
    /// How the container chooses what plays.
    package enum Kind: Sendable, Hashable {
        /// A weighted random child; `avoidRepeatCount` most recent picks (per
        /// container, across game objects) are not picked again (0 = may
        /// repeat; at most children − 1).
        case random(weights: [Double], avoidRepeatCount: Int)
        /// The next child in order each time it is played on a game object,
        /// wrapping around after the last (`loop`) or staying on the last.
        case sequence(loop: Bool)
        /// The child named by the game object's current value of switch
        /// group `group` (``BankContainer/switchChildren``); `defaultChild`
        /// when the value has no child (nil: nothing plays).
        case switchGroup(group: String, defaultChild: String?)
        /// Every child at once (layering).
        case blend
    }

    /// The name (the key in `"containers"`).
    package var name: String
    package var kind: Kind
    /// Children in order (sound or container names). For `.switchGroup`,
    /// every child that some switch value names.
    package var children: [String]
    /// For `.switchGroup`: switch value → child name.
    package var switchChildren: [String: String]
    /// Volume in dB added to every voice it plays.
    package var volumeDB: Double
    /// Pitch offset in cents added to every voice it plays.
    package var pitchCents: Double

    package init(
        name: String, kind: Kind, children: [String], switchChildren: [String: String] = [:], volumeDB: Double = 0,
        pitchCents: Double = 0
    ) {
        self.name = name
        self.kind = kind
        self.children = children
        self.switchChildren = switchChildren
        self.volumeDB = volumeDB
        self.pitchCents = pitchCents
    }
}

/// One ducking rule: while anything plays on the bus that owns the rule (or
/// a bus below it), `bus` is turned down by `volumeDB`.
package struct BankDucking: Sendable, Hashable {
    /// The bus turned down.
    package var bus: String
    /// How far, in dB (negative, -96…0).
    package var volumeDB: Double
    /// How long the turn-down takes once something starts playing.
    package var attack: Duration
    /// How long the way back takes once nothing plays any more.
    package var release: Duration

    package init(bus: String, volumeDB: Double, attack: Duration, release: Duration) {
        self.bus = bus
        self.volumeDB = volumeDB
        self.attack = attack
        self.release = release
    }
}

/// A bus of the bank, below `parent`.
package struct BankBus: Sendable, Hashable {
    package var name: String
    /// The parent bus (`"master"` or a bus of this bank or one loaded earlier).
    package var parent: String
    /// Volume in dB.
    package var volumeDB: Double
    /// Silenced while another app plays music (iOS's secondary-audio hint,
    /// Wwise's "mute for background music").
    package var muteForBackgroundMusic: Bool
    /// The buses this one ducks while it plays.
    package var ducking: [BankDucking]
    /// An auxiliary bus (Wwise's aux bus): sends of sounds and game objects
    /// may go to it, typically to a reverb on it. It is mixed like any bus.
    package var aux: Bool
    /// Its insert effects, in order (at most ``BankLimits/busEffects``).
    package var effects: [BankEffect] = []

    package init(
        name: String, parent: String = "master", volumeDB: Double = 0, muteForBackgroundMusic: Bool = false,
        ducking: [BankDucking] = [], aux: Bool = false, effects: [BankEffect] = []
    ) {
        self.effects = effects
        self.aux = aux
        self.name = name
        self.parent = parent
        self.volumeDB = volumeDB
        self.muteForBackgroundMusic = muteForBackgroundMusic
        self.ducking = ducking
    }
}

/// Distance → level curves for sounds positioned in 3D.
package struct BankAttenuation: Sendable, Hashable {
    package var name: String
    /// Distance (game units) → volume in dB.
    package var volume: Curve
    /// Distance → low-pass cut-off in Hz, or `nil` for none.
    package var lowPass: Curve?
    /// Whether the sound is panned by its direction from the listener
    /// (true) or stays centred (false).
    package var spatialize: Bool
    /// Distance → spread in percent (0: a point, 100: every speaker alike) on
    /// a surround output, or `nil` for a point at every distance. Stereo
    /// outputs pan by direction only.
    package var spread: Curve?
    /// Distance → dB added to the voice's aux sends (game-defined and the
    /// sound's own), on top of the dry volume curve (sends are post-fader),
    /// or `nil` for none.
    package var auxSend: Curve?

    package init(
        name: String, volume: Curve, lowPass: Curve? = nil, spatialize: Bool = true, spread: Curve? = nil,
        auxSend: Curve? = nil
    ) {
        self.spread = spread
        self.auxSend = auxSend
        self.name = name
        self.volume = volume
        self.lowPass = lowPass
        self.spatialize = spatialize
    }
}

/// What an RTPC drives.
package enum RTPCTarget: Sendable, Hashable {
    /// The volume (dB, added) of every voice a sound or container plays.
    case volume(object: String)
    /// The pitch (cents, added) of every voice a sound or container plays.
    case pitch(object: String)
    /// The low-pass cut-off (Hz; the lowest cut-off of all that apply wins)
    /// of every voice a sound or container plays.
    case lowPass(object: String)
    /// A bus's volume (dB, added). A bus is global, so only the RTPC's
    /// global value drives it.
    case busVolume(bus: String)
    /// The aux-send level (dB, added) of every voice a sound or container
    /// plays, for all its sends.
    case auxSendVolume(object: String)
    /// A parameter (named as in banks) of the insert effect in slot
    /// `effect` of `bus`, in the bank's units. Global value only.
    case effectParameter(bus: String, effect: Int, parameter: String)
}

/// One insert effect of a bus: its kind, its parameters in the engine's
/// units (``EffectParameterInfo/bankScale`` converts), and the bus keying
/// a compressor, if any.
package struct BankEffect: Sendable, Hashable {
    package var kind: EffectKind
    package var parameters: EffectParameters
    package var sidechain: String?

    package init(kind: EffectKind, parameters: EffectParameters? = nil, sidechain: String? = nil) {
        self.kind = kind
        self.parameters = parameters ?? .defaults(for: kind)
        self.sidechain = sidechain
    }
}

/// One use of an RTPC: a curve from its value to a target's parameter.
package struct RTPCBinding: Sendable, Hashable {
    package var target: RTPCTarget
    /// RTPC value → dB, cents or Hz (by target).
    package var curve: Curve

    package init(target: RTPCTarget, curve: Curve) {
        self.target = target
        self.curve = curve
    }
}

/// A game parameter (Wwise RTPC): a number the game sets, globally or per
/// game object, mapped through curves onto volumes, pitches and filters.
package struct BankRTPC: Sendable, Hashable {
    package var name: String
    package var range: ClosedRange<Double>
    /// The value before the game sets one (inside `range`).
    package var defaultValue: Double
    package var bindings: [RTPCBinding]

    package init(name: String, range: ClosedRange<Double>, defaultValue: Double, bindings: [RTPCBinding]) {
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.bindings = bindings
    }
}

/// A global state group (Wwise state): one current state, each with bus
/// volume offsets.
package struct BankStateGroup: Sendable, Hashable {
    package var name: String
    package var states: [String]
    /// The state before the game sets one.
    package var defaultState: String
    /// State → bus → volume offset in dB (buses not listed: 0 dB).
    package var busVolumes: [String: [String: Double]]
    /// How long bus volumes take to move to the new state's.
    package var transition: Duration

    package init(
        name: String, states: [String], defaultState: String, busVolumes: [String: [String: Double]] = [:],
        transition: Duration = .zero
    ) {
        self.name = name
        self.states = states
        self.defaultState = defaultState
        self.busVolumes = busVolumes
        self.transition = transition
    }
}

/// A switch group: a per-game-object choice (e.g. the surface under a
/// character's feet) that switch containers follow.
package struct BankSwitchGroup: Sendable, Hashable {
    package var name: String
    package var values: [String]
    /// The value for a game object that never set one.
    package var defaultValue: String

    package init(name: String, values: [String], defaultValue: String) {
        self.name = name
        self.values = values
        self.defaultValue = defaultValue
    }
}

/// One step of an event.
package struct BankAction: Sendable, Hashable {
    /// Who a stop/pause/resume/setVolume acts on.
    package enum Scope: String, Sendable, Hashable {
        /// Only voices on the game object the event was posted on.
        case gameObject
        /// Every game object.
        case global
    }

    /// The step.
    package enum Kind: Sendable, Hashable {
        /// Play a sound or container (`object`), fading in over `fadeIn`.
        case play(object: String, fadeIn: Duration)
        /// Stop the voices of a sound or container, fading out.
        case stop(object: String, fadeOut: Duration, scope: Scope)
        /// Stop every voice of this event's playing ID's game object (or all), fading out.
        case stopAll(fadeOut: Duration, scope: Scope)
        /// Pause the voices of a sound or container.
        case pause(object: String, fade: Duration, scope: Scope)
        /// Resume them.
        case resume(object: String, fade: Duration, scope: Scope)
        /// Set the volume offset (dB) of a sound's or container's voices.
        case setVolume(object: String, volumeDB: Double, fade: Duration, scope: Scope)
        /// Set a bus's volume offset (dB).
        case setBusVolume(bus: String, volumeDB: Double, fade: Duration)
        /// Set a state group's state.
        case setState(group: String, state: String)
        /// Set a switch on the game object the event was posted on.
        case setSwitch(group: String, value: String)
        /// Post another event on the same game object (its voices belong to
        /// the same playing ID).
        case post(event: String)
    }

    package var kind: Kind
    /// How long after the post the step happens.
    package var delay: Duration

    package init(_ kind: Kind, delay: Duration = .zero) {
        self.kind = kind
        self.delay = delay
    }
}

/// An event: what the game posts. Its actions run in order, each after its delay.
package struct BankEvent: Sendable, Hashable {
    package var name: String
    package var actions: [BankAction]

    package init(name: String, actions: [BankAction]) {
        self.name = name
        self.actions = actions
    }
}

/// A parsed, validated bank. Names are unique within each kind, and sounds
/// and containers share one namespace ("objects").
package struct Bank: Sendable {
    /// The bank's name: its file name without the extension.
    package var name: String
    /// The folder its sound files resolve in (absolute).
    package var folder: String
    package var sounds: [String: BankSound]
    package var containers: [String: BankContainer]
    /// Buses in an order where every parent comes before its children.
    package var buses: [BankBus]
    package var attenuations: [String: BankAttenuation]
    package var rtpcs: [String: BankRTPC]
    package var stateGroups: [String: BankStateGroup]
    package var switchGroups: [String: BankSwitchGroup]
    package var events: [String: BankEvent]
    /// Whether its sound files may live outside ``folder``. ``BankParser``
    /// sets it from ``BankLoadOptions/allowFilesOutsideBankFolder`` (false
    /// by default); a bank built in code chose its paths itself, so its
    /// default is true. When false, the engine holds the folder open and
    /// opens the bank's streamed sounds beneath it, through no symbolic
    /// link, every time a voice plays them (docs/banks.md).
    package var allowsFilesOutsideFolder: Bool

    package init(
        name: String, folder: String, sounds: [String: BankSound] = [:], containers: [String: BankContainer] = [:],
        buses: [BankBus] = [], attenuations: [String: BankAttenuation] = [:], rtpcs: [String: BankRTPC] = [:],
        stateGroups: [String: BankStateGroup] = [:], switchGroups: [String: BankSwitchGroup] = [:],
        events: [String: BankEvent] = [:], allowsFilesOutsideFolder: Bool = true
    ) {
        self.name = name
        self.folder = folder
        self.sounds = sounds
        self.containers = containers
        self.buses = buses
        self.attenuations = attenuations
        self.rtpcs = rtpcs
        self.stateGroups = stateGroups
        self.switchGroups = switchGroups
        self.events = events
        self.allowsFilesOutsideFolder = allowsFilesOutsideFolder
    }
}

/// One problem found in a bank file: where (a JSON path like
/// `$.sounds.step.file`) and why.
package struct BankIssue: Sendable, Hashable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason)" }
}
