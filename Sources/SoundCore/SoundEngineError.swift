/// Every recoverable failure SoundEngine reports.
///
/// The cases mirror Wwise's `AKRESULT` (engine misuse, bad IDs, devices) and
/// `AVAudioSession.ErrorCode` (audio-session misuse). Each case that can have
/// more than one cause carries a sentence saying what was wrong, naming the
/// field or ID involved. A call that throws one of these changes no state.
///
/// Programmer errors that can only be bugs inside SoundEngine trap instead.
public enum SoundEngineError: Error, Equatable, Hashable, Sendable {
    // MARK: AKRESULT

    /// The engine is not initialized (`AK_NotInitialized`, 102).
    case notInitialized
    /// The engine is already initialized (`AK_AlreadyInitialized`, 101).
    case alreadyInitialized
    /// A parameter was out of range or inconsistent (`AK_InvalidParameter`, 31).
    /// The reason names the field or argument and why it was refused.
    case invalidParameter(String)
    /// An ID (sound, voice, bus, event, game object) is unknown (`AK_IDNotFound`, 15).
    case idNotFound(String)
    /// The audio device or sound server cannot be used (`AK_DeviceNotReady`, 67).
    /// The reason names the server address that was tried.
    case deviceNotReady(String)
    /// A fixed-capacity pool was exhausted or an allocation failed (`AK_InsufficientMemory`, 52).
    case insufficientMemory(String)
    /// A fixed limit was reached: voices, buses, sounds (`AK_MaxReached`, 9).
    case maxReached(String)
    /// The game → audio command queue is full; the command was not queued (`AK_Busy`, 77).
    case commandQueueFull(String)
    /// A file does not exist or cannot be opened (`AK_FileNotFound`, 66).
    case fileNotFound(String)
    /// A file exists but is not valid audio or bank data (`AK_InvalidFile`, 7).
    case invalidFile(String)
    /// The operation exists in the API but not on this platform or server (`AK_NotImplemented`, 0).
    case notImplemented(String)
    /// Any other failure (`AK_Fail`, 2), with what failed.
    case fail(String)

    // MARK: AVAudioSession.ErrorCode

    /// The current category does not support the operation (`'!cat'`).
    case incompatibleCategory(String)
    /// A non-mixable session may not interrupt others now (`'!int'`).
    case cannotInterruptOthers(String)
    /// Deactivation or an I/O change was refused because I/O is running (`'!act'`).
    case isBusy(String)
    /// Playback is not allowed in this state, e.g. a background ambient session (`'!pla'`).
    case cannotStartPlaying(String)
    /// Recording is not allowed in this state (`'!rec'`).
    case cannotStartRecording(String)
    /// A hardware resource, such as an input device, is missing (`'!res'`).
    case resourceNotAvailable(String)
    /// The operation needs an active session (`'inac'`).
    case sessionNotActive(String)
    /// The sound server failed; wait for media services to be reset (`'msrv'`).
    case mediaServicesFailed(String)
    /// Another client with higher priority (a call) controls audio (`'!pri'`).
    case insufficientPriority(String)
    /// The app lacks an entitlement the operation needs (`'ent?'`).
    case missingEntitlement(String)
    /// The operation is not allowed while Siri is recording (`'siri'`).
    case siriIsRecording(String)
    /// The session was destroyed (`'!ses'`).
    case expiredSession(String)
    /// A session failure with no more specific code (`'what'`).
    case unspecified(String)
}

extension SoundEngineError {
    /// The Wwise `AKRESULT` value this error corresponds to.
    public var akResult: Int32 {
        switch self {
        case .notInitialized: 102
        case .alreadyInitialized: 101
        case .invalidParameter: 31
        case .idNotFound: 15
        case .deviceNotReady: 67
        case .insufficientMemory: 52
        case .maxReached: 9
        case .commandQueueFull: 77
        case .fileNotFound: 66
        case .invalidFile: 7
        case .notImplemented: 0
        case .fail, .incompatibleCategory, .cannotInterruptOthers, .isBusy, .cannotStartPlaying,
            .cannotStartRecording, .resourceNotAvailable, .sessionNotActive, .mediaServicesFailed,
            .insufficientPriority, .missingEntitlement, .siriIsRecording, .expiredSession, .unspecified:
            2
        }
    }

    /// The `AVAudioSession.ErrorCode` (an `OSStatus`) for session errors;
    /// `-50` (`badParam`) for `invalidParameter`; `nil` for engine-only errors.
    public var sessionErrorCode: Int32? {
        switch self {
        case .invalidParameter: -50
        case .incompatibleCategory: 560_161_140  // '!cat'
        case .cannotInterruptOthers: 560_557_684  // '!int'
        case .isBusy: 560_030_580  // '!act'
        case .cannotStartPlaying: 561_015_905  // '!pla'
        case .cannotStartRecording: 561_145_187  // '!rec'
        case .resourceNotAvailable: 561_145_203  // '!res'
        case .sessionNotActive: 1_768_841_571  // 'inac'
        case .mediaServicesFailed: 1_836_282_486  // 'msrv'
        case .insufficientPriority: 561_017_449  // '!pri'
        case .missingEntitlement: 1_701_737_535  // 'ent?'
        case .siriIsRecording: 1_936_290_409  // 'siri'
        case .expiredSession: 561_210_739  // '!ses'
        case .unspecified: 2_003_329_396  // 'what'
        case .notInitialized, .alreadyInitialized, .idNotFound, .deviceNotReady, .insufficientMemory, .maxReached,
            .commandQueueFull, .fileNotFound, .invalidFile, .notImplemented, .fail:
            nil
        }
    }

    /// The words that say what went wrong, without the case name.
    public var reason: String {
        switch self {
        case .notInitialized: "the sound engine is not initialized"
        case .alreadyInitialized: "the sound engine is already initialized"
        case .invalidParameter(let r), .idNotFound(let r), .deviceNotReady(let r), .insufficientMemory(let r),
            .maxReached(let r), .commandQueueFull(let r), .fileNotFound(let r), .invalidFile(let r),
            .notImplemented(let r), .fail(let r), .incompatibleCategory(let r), .cannotInterruptOthers(let r),
            .isBusy(let r), .cannotStartPlaying(let r), .cannotStartRecording(let r),
            .resourceNotAvailable(let r), .sessionNotActive(let r), .mediaServicesFailed(let r),
            .insufficientPriority(let r), .missingEntitlement(let r), .siriIsRecording(let r),
            .expiredSession(let r), .unspecified(let r):
            r
        }
    }
}

extension SoundEngineError: CustomStringConvertible {
    /// The case's name, e.g. `"invalidParameter"`: a stable code for logs and
    /// machine-readable output (the IntegrationDemo's `code` field).
    public var caseName: String {
        switch self {
        case .notInitialized: "notInitialized"
        case .alreadyInitialized: "alreadyInitialized"
        case .invalidParameter: "invalidParameter"
        case .idNotFound: "idNotFound"
        case .deviceNotReady: "deviceNotReady"
        case .insufficientMemory: "insufficientMemory"
        case .maxReached: "maxReached"
        case .commandQueueFull: "commandQueueFull"
        case .fileNotFound: "fileNotFound"
        case .invalidFile: "invalidFile"
        case .notImplemented: "notImplemented"
        case .fail: "fail"
        case .incompatibleCategory: "incompatibleCategory"
        case .cannotInterruptOthers: "cannotInterruptOthers"
        case .isBusy: "isBusy"
        case .cannotStartPlaying: "cannotStartPlaying"
        case .cannotStartRecording: "cannotStartRecording"
        case .resourceNotAvailable: "resourceNotAvailable"
        case .sessionNotActive: "sessionNotActive"
        case .mediaServicesFailed: "mediaServicesFailed"
        case .insufficientPriority: "insufficientPriority"
        case .missingEntitlement: "missingEntitlement"
        case .siriIsRecording: "siriIsRecording"
        case .expiredSession: "expiredSession"
        case .unspecified: "unspecified"
        }
    }

    public var description: String { "\(caseName): \(reason)" }
}
