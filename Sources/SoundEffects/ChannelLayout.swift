/// The output channel orders the effects assume (the mixer's), by channel count:
///
/// | channels | order |
/// | --- | --- |
/// | 1 | mono |
/// | 2 | FL FR |
/// | 3 | FL FR FC |
/// | 4 | FL FR RL RR |
/// | 5 | FL FR FC RL RR |
/// | 6 | FL FR FC LFE RL RR |
/// | 7 | FL FR FC LFE RC SL SR |
/// | 8 | FL FR FC LFE RL RR SL SR |
///
/// The reverb uses it to keep the LFE dry (no reverb in, none out), to
/// feed its left and right inputs from the left-side and right-side
/// channels, and to give every other channel its own decorrelated output.
package enum ChannelLayout {
    /// Which side of the listener channel `channel` of a `channels`-channel layout is on.
    package enum Side: UInt8, BitwiseCopyable, Sendable {
        /// The only channel of a mono layout.
        case mono
        /// FL, RL, SL.
        case left
        /// FR, RR, SR.
        case right
        /// FC, RC.
        case centre
        /// The low-frequency effects channel.
        case lfe
    }

    /// The side of channel `channel` (0-based) in a `channels`-channel
    /// layout (1…8; anything else is treated as the nearest). Runs on the
    /// render thread.
    @_noLocks
    package static func side(of channel: Int, channels: Int) -> Side {
        switch channels {
        case ...1: return .mono
        case 2: return channel == 0 ? .left : .right
        case 3: return channel == 2 ? .centre : (channel == 0 ? .left : .right)
        case 4: return channel & 1 == 0 ? .left : .right
        case 5: return channel == 2 ? .centre : ((channel == 0 || channel == 3) ? .left : .right)
        case 6:
            switch channel {
            case 2: return .centre
            case 3: return .lfe
            case 0, 4: return .left
            default: return .right
            }
        case 7:
            switch channel {
            case 2, 4: return .centre
            case 3: return .lfe
            case 0, 5: return .left
            default: return .right
            }
        default:
            switch channel {
            case 2: return .centre
            case 3: return .lfe
            case 0, 4, 6: return .left
            default: return .right
            }
        }
    }

    /// The index of the LFE channel in a `channels`-channel layout, or −1
    /// (6, 7 and 8 channels have it at 3). Runs on the render thread.
    @_noLocks
    package static func lfeIndex(channels: Int) -> Int {
        channels >= 6 ? 3 : -1
    }
}
