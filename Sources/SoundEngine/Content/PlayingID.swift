package import SoundMixer

extension SoundEngine {
    /// Something playing: one posting of an event (Wwise `AkPlayingID`), with
    /// every voice its actions start, or one voice started by
    /// ``SoundEngine/play(_:on:_:callbackTypes:callback:)``. The same calls act on both
    /// (``SoundEngine/stop(_:fade:)``, ``SoundEngine/pause(_:fade:)``,
    /// ``SoundEngine/isPlaying(_:)``…).
    ///
    /// Opaque: store it, compare it, hand it back; never compute one.
    /// Postings count up from 1 as Wwise's do (never 0,
    /// `AK_INVALID_PLAYING_ID`; the 32-bit counter wraps, skipping IDs still
    /// playing); a play's ID carries its voice, so acting on it needs no look-up.
    public struct PlayingID: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The number: 1…2³²−1 for a posting, with the top bit set for a play.
        public let rawValue: UInt64

        /// Wraps a number the game stored or received in a callback.
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// A posting's ID.
        package init(posting: UInt32) { rawValue = UInt64(posting) }

        /// The ID of the voice a play started: top bit, slot (31 bits), generation.
        package init(voice: VoiceID) {
            rawValue = Self.voiceBit | UInt64(voice.slot & 0x7FFF_FFFF) << 32 | UInt64(voice.generation)
        }

        /// The voice of a play, `nil` for a posting.
        package var voice: VoiceID? {
            guard rawValue & Self.voiceBit != 0 else { return nil }
            return VoiceID(slot: UInt32(truncatingIfNeeded: rawValue >> 32) & 0x7FFF_FFFF,
                           generation: UInt32(truncatingIfNeeded: rawValue))
        }

        /// A posting's 32-bit number (Wwise's `AkPlayingID`), `nil` for a play.
        package var posting: UInt32? {
            rawValue & Self.voiceBit == 0 && rawValue <= UInt64(UInt32.max) ? UInt32(rawValue) : nil
        }

        private static let voiceBit: UInt64 = 1 << 63

        public var description: String {
            if let voice { "playing ID \(rawValue) (\(voice))" } else { "playing ID \(rawValue)" }
        }
        public static func < (a: PlayingID, b: PlayingID) -> Bool { a.rawValue < b.rawValue }
    }
}
