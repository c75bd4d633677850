import SoundCore
import Testing

/// The errors must say what went wrong, and carry the codes Wwise and
/// AVAudioSession use (values from the reference tables in
/// /work/shared/reference/api-facts.md, §2.8 and §1.3). Cases are listed one by
/// one, not switched over, so that adding a case does not break this suite.
@Suite struct SoundEngineErrorTests {
    /// The codes of AVAudioSession.ErrorCode are FourCCs: four ASCII bytes, big-endian.
    static func fourCC(_ code: String) -> Int32 {
        Int32(bitPattern: code.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    @Test(arguments: [
        (SoundEngineError.invalidParameter("sampleRate 0 is not positive"), "invalidParameter"),
        (.idNotFound("voice 42"), "idNotFound"),
        (.deviceNotReady("unix:/run/user/1000/pulse/native did not answer"), "deviceNotReady"),
        (.insufficientMemory("the voice pool of 64 is full"), "insufficientMemory"),
        (.maxReached("at most 8 buses"), "maxReached"),
        (.commandQueueFull("1024 commands pending"), "commandQueueFull"),
        (.fileNotFound("/nowhere/step.wav"), "fileNotFound"),
        (.invalidFile("step.wav is not audio"), "invalidFile"),
        (.notImplemented("multiRoute on PulseAudio"), "notImplemented"),
        (.fail("pa_stream_connect_playback refused"), "fail"),
        (.incompatibleCategory("input in category playback"), "incompatibleCategory"),
        (.cannotInterruptOthers("soloAmbient from the background"), "cannotInterruptOthers"),
        (.isBusy("deactivating with 2 voices playing"), "isBusy"),
        (.cannotStartPlaying("ambient in the background"), "cannotStartPlaying"),
        (.cannotStartRecording("no record permission"), "cannotStartRecording"),
        (.resourceNotAvailable("no input device"), "resourceNotAvailable"),
        (.sessionNotActive("setPreferredInput before setActive"), "sessionNotActive"),
        (.mediaServicesFailed("the server connection was lost"), "mediaServicesFailed"),
        (.insufficientPriority("a call holds audio"), "insufficientPriority"),
    ])
    func descriptionNamesTheCaseAndTheReason(error: SoundEngineError, name: String) {
        // The payload, read back by reflection so each reason is written once above.
        guard case let reason?? = Mirror(reflecting: error).children.first.map({ $0.value as? String }) else {
            Issue.record("\(name) carries no reason")
            return
        }
        #expect(error.reason == reason)
        #expect(error.description == "\(name): \(reason)")
        #expect(String(describing: error) == error.description)
    }

    @Test(arguments: [
        (SoundEngineError.notInitialized, "notInitialized", "not initialized"),
        (.alreadyInitialized, "alreadyInitialized", "already initialized"),
    ])
    func casesWithoutAReasonStillSayWhatIsWrong(error: SoundEngineError, name: String, words: String) {
        #expect(error.description.hasPrefix("\(name): "))
        #expect(error.reason.contains(words))
        #expect(error.description.hasSuffix(error.reason))
    }

    @Test(arguments: [
        (SoundEngineError.notImplemented(""), Int32(0)),  // AK_NotImplemented
        (.fail(""), 2),  // AK_Fail
        (.invalidFile(""), 7),  // AK_InvalidFile
        (.maxReached(""), 9),  // AK_MaxReached
        (.idNotFound(""), 15),  // AK_IDNotFound
        (.invalidParameter(""), 31),  // AK_InvalidParameter
        (.insufficientMemory(""), 52),  // AK_InsufficientMemory
        (.fileNotFound(""), 66),  // AK_FileNotFound
        (.deviceNotReady(""), 67),  // AK_DeviceNotReady
        (.commandQueueFull(""), 77),  // AK_Busy
        (.alreadyInitialized, 101),  // AK_AlreadyInitialized
        (.notInitialized, 102),  // AK_NotInitialized
    ])
    func engineErrorsCarryTheirAKRESULT(error: SoundEngineError, akResult: Int32) {
        #expect(error.akResult == akResult)
    }

    /// Session errors have no AKRESULT of their own: Wwise would report them as `AK_Fail` (2).
    @Test(arguments: [
        SoundEngineError.incompatibleCategory("x"), .cannotInterruptOthers("x"), .isBusy("x"),
        .cannotStartPlaying("x"), .cannotStartRecording("x"), .resourceNotAvailable("x"),
        .sessionNotActive("x"), .mediaServicesFailed("x"), .insufficientPriority("x"),
    ])
    func sessionErrorsAreAKFail(error: SoundEngineError) {
        #expect(error.akResult == 2)
    }

    @Test(arguments: [
        (SoundEngineError.incompatibleCategory(""), "!cat", Int32(560_161_140)),
        (.cannotInterruptOthers(""), "!int", 560_557_684),
        (.isBusy(""), "!act", 560_030_580),
        (.cannotStartPlaying(""), "!pla", 561_015_905),
        (.cannotStartRecording(""), "!rec", 561_145_187),
        (.resourceNotAvailable(""), "!res", 561_145_203),
        (.sessionNotActive(""), "inac", 1_768_841_571),
        (.mediaServicesFailed(""), "msrv", 1_836_282_486),
        (.insufficientPriority(""), "!pri", 561_017_449),
    ])
    func sessionErrorsCarryTheirAVAudioSessionCode(error: SoundEngineError, fourCC: String, code: Int32) {
        #expect(Self.fourCC(fourCC) == code, "the reference table disagrees with its own FourCC")
        #expect(error.sessionErrorCode == code)
    }

    @Test func invalidParameterIsBadParam() {
        #expect(SoundEngineError.invalidParameter("mode").sessionErrorCode == -50)
    }

    @Test(arguments: [
        SoundEngineError.notInitialized, .alreadyInitialized, .idNotFound("x"), .deviceNotReady("x"),
        .insufficientMemory("x"), .maxReached("x"), .commandQueueFull("x"), .fileNotFound("x"),
        .invalidFile("x"), .notImplemented("x"), .fail("x"),
    ])
    func engineOnlyErrorsHaveNoSessionCode(error: SoundEngineError) {
        #expect(error.sessionErrorCode == nil)
    }

    @Test func equalityComparesCaseAndReason() {
        #expect(SoundEngineError.fail("a") == .fail("a"))
        #expect(SoundEngineError.fail("a") != .fail("b"))
        #expect(SoundEngineError.fail("a") != .invalidFile("a"))
        let distinct: Set<SoundEngineError> = [.fail("a"), .fail("a"), .fail("b"), .isBusy("a"), .notInitialized]
        #expect(distinct.count == 4)
    }

    @Test func typedThrowsCarryTheErrorUnchanged() {
        func refuse() throws(SoundEngineError) { throw .maxReached("at most 8 buses") }
        #expect(throws: SoundEngineError.maxReached("at most 8 buses")) { try refuse() }
    }
}
