import SoundContent
import SoundDecoding
import SoundMixer

/// Everything the content layer knows, behind ``ContentEngine``'s one lock:
/// the loaded banks and their name indexes, the game objects, and what is
/// playing. Names are looked up by their ``ContentID`` (the hash of the
/// lowercased name), so a name and its ID always find the same thing.
struct ContentState: Sendable {
    // MARK: Banks and their indexes

    var banks: [BankID: LoadedBank] = [:]
    /// Sounds and containers (one namespace, as in a bank).
    var objects: [ContentID: ObjectEntry] = [:]
    var events: [ContentID: Owned<BankEvent>] = [:]
    /// Every bus content can name, `master` included (owned by no bank).
    var buses: [ContentID: BusEntry] = [ContentID("master"): BusEntry(name: "master", bus: .master, bank: nil)]
    var rtpcs: [ContentID: Owned<BankRTPC>] = [:]
    var stateGroups: [ContentID: Owned<BankStateGroup>] = [:]
    var switchGroups: [ContentID: Owned<BankSwitchGroup>] = [:]
    /// Mixer buses of unloaded banks (the mixer cannot remove a bus): silent,
    /// reused when a bus of the same name is loaded again.
    var retiredBuses: [ContentID: [BusID]] = [:]
    /// RTPC bindings by the sound or container they drive (rebuilt on load/unload).
    var objectBindings: [ContentID: [ObjectBinding]] = [:]
    /// RTPC bindings by the bus they drive.
    var busBindings: [ContentID: [(rtpc: ContentID, curve: Curve)]] = [:]
    /// RTPC bindings of bus effects' parameters, by bus.
    var effectBindings: [ContentID: [EffectBinding]] = [:]
    /// What each bound effect parameter was last sent (engine units).
    var effectSent: [EffectBinding.Key: Float] = [:]

    // MARK: Game objects

    var gameObjects: [GameObjectID: GameObject] = [:]
    /// Set by setDefaultListeners; empty = the implicit listener at the origin.
    var defaultListeners: [GameObjectID] = []

    // MARK: What plays

    var playings: [PlayingID: Playing] = [:]
    /// By the content layer's own token (a completion needs a key before the
    /// mixer has returned the voice's ID).
    var voices: [UInt64: ContentVoice] = [:]
    /// The token of each voice in `voices`, by the mixer's ID (a marker
    /// event names the voice).
    var tokensByVoice: [VoiceID: UInt64] = [:]
    var nextPlaying: UInt32 = 1
    /// Whether `nextPlaying` has wrapped past 2³²−1: every ID may have been issued since.
    var playingIDsWrapped = false
    var nextToken: UInt64 = 1
    /// Per random container: its most recent picks (child indexes), newest last.
    var randomHistory: [ContentID: [Int]] = [:]
    var globalRTPC: [ContentID: Ramp] = [:]
    var states: [ContentID: StateRuntime] = [:]
    /// Offsets of setVolume actions, by object and scope.
    var volumeOffsets: [OffsetKey: Ramp] = [:]
    /// Offsets of setBusVolume actions.
    var busOffsets: [ContentID: Ramp] = [:]
    var ducking: [DuckKey: DuckRuntime] = [:]
    /// The linear volume each content bus was last given.
    var busSent: [ContentID: Float] = [ContentID("master"): 1]
    /// End-of-event callbacks owed, delivered by the event thread.
    var outbox: [(callback: @Sendable (SoundEngine.CallbackInfo) -> Void, message: SoundEngine.CallbackInfo)] = []
    /// Set by terminate: every call refuses, every timer does nothing.
    var closed = false
    /// Whether a refresh tick is queued on the timer queue.
    var tickScheduled = false
    /// Something the levels depend on changed (an event's setVolume,
    /// setBusVolume or setState action) since the last full refresh.
    var levelsChanged = false
    /// A mixer command of the last refresh was refused (a full queue): the
    /// next refresh is a full one, which sends it again.
    var sendOwed = false
    /// Voices started since the last refresh (kept allocated).
    var started: [UInt64] = []
    /// Postings whose actions have not run yet, in the order they were
    /// posted (ContentEngine+Events, "Queued posting"; kept allocated).
    var queuedPosts: [QueuedPost] = []
}

/// A posting accepted by `postEvent` whose actions wait for the content
/// thread (or for the next content call, which runs them first).
struct QueuedPost: Sendable {
    var id: PlayingID
    var event: BankEvent
    var gameObject: GameObjectID
    /// The mixer clock when it was posted: its delays count from here.
    var frame: Int64
}

/// A definition and the bank that brought it.
struct Owned<T: Sendable>: Sendable {
    var bank: BankID
    var value: T
}

/// A sound or a container of a loaded bank.
struct ObjectEntry: Sendable {
    enum Kind: Sendable {
        case sound(BankSound, SoundID)
        case container(BankContainer)
    }
    var bank: BankID
    var kind: Kind

    var name: String {
        switch kind {
        case .sound(let s, _): s.name
        case .container(let c): c.name
        }
    }
}

/// A bus content can name and the mixer bus behind it.
struct BusEntry: Sendable {
    var name: String
    var bus: BusID
    /// The bank that created it; `nil` for master.
    var bank: BankID?
    var definition: BankBus?

    init(name: String, bus: BusID, bank: BankID?, definition: BankBus? = nil) {
        self.name = name
        self.bus = bus
        self.bank = bank
        self.definition = definition
    }

    /// The parent's ID, `nil` for master.
    var parent: ContentID? { definition.map { ContentID($0.parent) } }
}

/// A loaded bank and what loading it made.
struct LoadedBank: Sendable {
    var bank: Bank
    var sounds: [ContentID: SoundID]
    /// Buses this bank created (or took back from the retired ones).
    var buses: [ContentID]
    /// The bank's folder, held open while it is loaded when its streamed
    /// sounds must stay inside it (the openers of those sounds hold it too,
    /// until their last voice has ended).
    var folder: SoundFolder?
}

/// An RTPC driving a parameter of a bus's insert effect (global value only).
struct EffectBinding: Sendable {
    struct Key: Hashable, Sendable {
        var bus: ContentID
        var slot: Int
        var parameter: Int
    }
    var rtpc: ContentID
    var slot: Int
    /// The parameter's index and what a bank value is multiplied by (seconds → ms).
    var parameter: Int
    var scale: Float
    var range: ClosedRange<Float>
    var curve: Curve
}

/// One RTPC binding, indexed by the object it drives.
struct ObjectBinding: Sendable {
    enum Parameter: Sendable { case volume, pitch, lowPass, auxSend }
    var rtpc: ContentID
    var parameter: Parameter
    var curve: Curve
}

/// A registered game object.
struct GameObject: Sendable {
    var name: String?
    var position = Vector3.zero
    var orientation = Orientation.default
    /// Switch group → current value name.
    var switches: [ContentID: String] = [:]
    /// Sequence container → the index its next play starts from.
    var sequenceNext: [ContentID: Int] = [:]
    /// Per-object RTPC values; they override the global value.
    var rtpc: [ContentID: Ramp] = [:]
    /// Its game-defined aux sends (Wwise `SetGameObjectAuxSendValues`): aux
    /// bus → level (linear, 0…16), for every voice it plays.
    var auxSends: [ContentID: Float] = [:]
}

/// One posting of an event.
struct Playing: Sendable {
    var event: String
    /// The bank of the posted event: unloading it cancels the delayed actions.
    var bank: BankID
    var gameObject: GameObjectID
    var callback: (@Sendable (SoundEngine.CallbackInfo) -> Void)?
    /// Its callback asked for each voice's ``SoundEngine/CallbackInfo/duration(_:sound:length:streaming:)``.
    var durations = false
    /// Tokens of its voices still playing.
    var voices: Set<UInt64> = []
    /// Tokens of its delayed actions still waiting on the timer queue.
    var timers: Set<UInt64> = []
    /// Its actions wait in `queuedPosts`; cleared when they run, or when the
    /// posting is stopped (or its bank unloaded) first, which cancels them.
    var queued = false
    /// Its own RTPC values (Wwise `SetRTPCValueByPlayingID`): they override
    /// its game object's and the global value, for its voices only.
    var rtpc: [ContentID: Ramp] = [:]
}

/// A voice the content layer started, and what its level is made of.
struct ContentVoice: Sendable {
    var voice: VoiceID
    var playing: PlayingID
    var gameObject: GameObjectID
    var bank: BankID
    /// The containers it was played through, outermost first, then the sound.
    var path: [ContentID]
    /// Sound plus containers: the fixed part of its volume (dB) and pitch (cents).
    var baseVolumeDB: Double
    var basePitchCents: Double
    var bus: ContentID
    var attenuation: BankAttenuation?
    /// Its sound's LFE level (dB relative to its volume), if it has one.
    var lfeDB: Double?
    /// Its sound's own aux sends (user-defined sends).
    var ownSends: [BankAuxSend] = []
    /// The aux bus each of the mixer voice's sends goes to (by index; `nil`: free).
    var sendSlots: [ContentID?] = [nil, nil, nil, nil]
    /// What the mixer was last told, to send only changes.
    var sent: VoiceMix
}

/// The mixer-facing parameters of a voice.
struct VoiceMix: Equatable, Sendable {
    var volume: Float
    var pan: Float
    var pitch: Double
    var lowPassHz: Float?
    /// Its place among the speakers of a surround output: a spatialised 3D
    /// voice's direction and spread, and the sound's LFE level; `nil` for a
    /// 2D voice without an LFE level.
    var placement: SpeakerPlacement?
    /// Its aux sends: the game object's and the sound's, times the
    /// attenuation's aux-send curve and the RTPCs that drive it, the four
    /// loudest; keyed by aux bus.
    var sends: [ContentID: VoiceSendTarget] = [:]
}

extension VoiceMix {
    /// Its sends in the order a starting voice takes them (send index k is
    /// entry k): by aux bus ID.
    var orderedSends: [(id: ContentID, send: VoiceSendTarget)] {
        sends.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) }
    }
}

/// One aux send of a content voice: the mixer bus and the linear gain.
struct VoiceSendTarget: Equatable, Sendable {
    var bus: BusID
    var gain: Float
}

/// A state group's current state and its move from the previous one.
struct StateRuntime: Sendable {
    var current: String
    /// The bus offsets (dB) the transition started from.
    var from: [ContentID: Double] = [:]
    /// 0 → 1 over the group's transition time.
    var progress = Ramp(1)
}

/// Which voices a setVolume offset applies to: an object's voices on one
/// game object, or on all (`gameObject == nil`).
struct OffsetKey: Hashable, Sendable {
    var object: ContentID
    var gameObject: GameObjectID?
}

/// One ducking rule: the bus that owns it and its index there.
struct DuckKey: Hashable, Sendable {
    var owner: ContentID
    var index: Int
}

/// Whether a ducking rule is engaged, and its level (dB, ≤ 0).
struct DuckRuntime: Sendable {
    var engaged = false
    var level = Ramp(0)
}
