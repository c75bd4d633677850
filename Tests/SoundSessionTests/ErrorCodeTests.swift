import SoundCore
import Testing

/// The `OSStatus` of every session error, checked against
/// `AVAudioSession.ErrorCode` (api-facts 1.3) by computing each FourCC from
/// its four characters rather than trusting a written-out number.
@Suite struct ErrorCodeTests {
    /// The four characters of a code, big-endian, as iOS's `'abcd'` literal.
    static func fourCC(_ code: String) -> Int32 {
        let bytes = Array(code.utf8)
        precondition(bytes.count == 4, "a FourCC has four characters: \(code)")
        return Int32(bitPattern: bytes.reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// api-facts 1.3, every case except `none` (success is not an error).
    /// The switch has no default: a new error case does not compile until
    /// this table says which code, if any, it carries.
    static func expectedCode(_ error: SoundEngineError) -> Int32? {
        switch error {
        case .invalidParameter: -50  // badParam
        case .mediaServicesFailed: fourCC("msrv")
        case .isBusy: fourCC("!act")
        case .incompatibleCategory: fourCC("!cat")
        case .cannotInterruptOthers: fourCC("!int")
        case .missingEntitlement: fourCC("ent?")
        case .siriIsRecording: fourCC("siri")
        case .cannotStartPlaying: fourCC("!pla")
        case .cannotStartRecording: fourCC("!rec")
        case .insufficientPriority: fourCC("!pri")
        case .resourceNotAvailable: fourCC("!res")
        case .unspecified: fourCC("what")
        case .expiredSession: fourCC("!ses")
        case .sessionNotActive: fourCC("inac")
        case .notInitialized, .alreadyInitialized, .idNotFound, .deviceNotReady, .insufficientMemory, .maxReached,
            .commandQueueFull, .fileNotFound, .invalidFile, .notImplemented, .fail:
            nil
        }
    }

    /// One value of every case.
    static let everyError: [SoundEngineError] = [
        .notInitialized, .alreadyInitialized, .invalidParameter("x"), .idNotFound("x"), .deviceNotReady("x"),
        .insufficientMemory("x"), .maxReached("x"), .commandQueueFull("x"), .fileNotFound("x"), .invalidFile("x"),
        .notImplemented("x"), .fail("x"),
        .incompatibleCategory("x"), .cannotInterruptOthers("x"), .isBusy("x"), .cannotStartPlaying("x"),
        .cannotStartRecording("x"), .resourceNotAvailable("x"), .sessionNotActive("x"), .mediaServicesFailed("x"),
        .insufficientPriority("x"), .missingEntitlement("x"), .siriIsRecording("x"), .expiredSession("x"),
        .unspecified("x"),
    ]

    @Test(arguments: everyError)
    func sessionErrorCode(error: SoundEngineError) {
        #expect(error.sessionErrorCode == Self.expectedCode(error), "\(error)")
    }

    @Test func theDecimalValuesOfApiFacts() {
        // The decimal column of api-facts 1.3, so a wrong FourCC helper cannot hide a wrong code.
        let decimal: [(String, Int32)] = [
            ("msrv", 1_836_282_486), ("!act", 560_030_580), ("!cat", 560_161_140), ("!int", 560_557_684),
            ("ent?", 1_701_737_535), ("siri", 1_936_290_409), ("!pla", 561_015_905), ("!rec", 561_145_187),
            ("!pri", 561_017_449), ("!res", 561_145_203), ("what", 2_003_329_396), ("!ses", 561_210_739),
            ("inac", 1_768_841_571),
        ]
        for (code, value) in decimal { #expect(Self.fourCC(code) == value, "'\(code)'") }
    }

    @Test func everySessionCodeOfAVAudioSessionIsRepresented() {
        let codes = Set(Self.everyError.compactMap(\.sessionErrorCode))
        // api-facts 1.3 lists 14 failure codes: badParam and 13 FourCCs.
        #expect(codes.count == 14)
        #expect(codes.count == Self.everyError.filter { $0.sessionErrorCode != nil }.count, "no two share a code")
    }

    @Test(arguments: everyError)
    func sessionErrorsAreAKFailInWwise(error: SoundEngineError) {
        // Wwise has no session codes: every session-only error is AK_Fail (2).
        if error.sessionErrorCode != nil, error != .invalidParameter("x") {
            #expect(error.akResult == 2, "\(error)")
        }
        #expect(error.description.hasSuffix(error.reason))
    }
}
