import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession
import Synchronization

/// Sound and voice handles of the C API: 64-bit integers that carry the
/// engine they came from, so a handle kept across se_terminate and the next
/// se_initialize is refused (SE_InvalidParameter) instead of naming whatever
/// reuses its slot in the new engine.
///
///     bits 63…49: engine epoch (15 bits, 1…32767, wraps)
///     bits 48…32: slot + 1 (17 bits; slots are below 65536, the largest pool)
///     bits 31…0:  generation
///
/// 0 is never a handle. Bank, game object, playing and bus IDs are the plain
/// integers of Wwise and carry no epoch.
enum Handles {
    /// The epoch of the engine the C API started last; 0 before the first.
    /// relaxed: a handle is checked against it only together with a façade
    /// call, whose own lock orders it against initialize.
    private static let epoch = Atomic<UInt64>(0)

    /// Called after a successful se_initialize.
    static func engineStarted() {
        var current = epoch.load(ordering: .relaxed)
        while true {
            let next = current % 32_767 + 1
            let (exchanged, original) = epoch.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    static func encode(slot: UInt32, generation: UInt32) -> UInt64 {
        epoch.load(ordering: .relaxed) << 49 | (UInt64(slot) + 1) << 32 | UInt64(generation)
    }

    /// The slot and generation of `handle`, or why it names nothing of the running engine.
    static func decode(_ handle: UInt64, _ kind: StaticString, _ function: StaticString)
        throws(SoundEngineError) -> (slot: UInt32, generation: UInt32)
    {
        let slotPlusOne = (handle >> 32) & 0x1_FFFF
        guard slotPlusOne != 0 else {
            throw Argument.invalid(function, "\(kind) 0x\(String(handle, radix: 16)) is not a \(kind) handle")
        }
        guard handle >> 49 == epoch.load(ordering: .relaxed) else {
            // With no engine, the rule for every call: notInitialized.
            guard SoundEngine.isInitialized else { throw .notInitialized }
            throw Argument.invalid(
                function, "\(kind) 0x\(String(handle, radix: 16)) is not a handle of the running engine (one terminated since, or never one)")
        }
        return (UInt32(slotPlusOne - 1), UInt32(truncatingIfNeeded: handle))
    }

    /// The handle of a play's voice (a posting has none: 0, never a handle).
    static func voice(_ id: PlayingID) -> UInt64 {
        guard let voice = id.voice else { return 0 }
        return encode(slot: voice.slot, generation: voice.generation)
    }
    static func sound(_ id: SoundID) -> UInt64 { encode(slot: id.slot, generation: id.generation) }

    /// The play a voice handle names.
    static func playing(_ handle: UInt64, _ function: StaticString = #function) throws(SoundEngineError) -> PlayingID {
        let (slot, generation) = try decode(handle, "voice", function)
        return PlayingID(voice: VoiceID(slot: slot, generation: generation))
    }

    static func soundID(_ handle: UInt64, _ function: StaticString = #function) throws(SoundEngineError) -> SoundID {
        let (slot, generation) = try decode(handle, "sound", function)
        return SoundID(slot: slot, generation: generation)
    }
}
