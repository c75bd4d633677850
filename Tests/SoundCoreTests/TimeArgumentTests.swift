import SoundCore
import Testing

/// The one rule for times (docs/input-validation.md): 0…3600 s, else
/// `invalidParameter` naming the argument and the range; nothing traps,
/// whatever `Duration` or number of seconds it is given.
@Suite struct TimeArgumentTests {
    @Test(arguments: [
        Duration.nanoseconds(-1), .seconds(-1), .seconds(3600) + .nanoseconds(1), .seconds(Int64.max), .seconds(Int64.min),
        Duration(secondsComponent: .max, attosecondsComponent: .max), Duration(secondsComponent: .min, attosecondsComponent: .min),
        .seconds(-10_000_000_000),
    ])
    func outsideTheRangeIsRefusedNamingTheArgument(duration: Duration) {
        #expect { try TimeArgument.check(duration, "stop fadeOut") } throws: { error in
            guard case .invalidParameter(let why)? = error as? SoundEngineError else { return false }
            return why.hasPrefix("stop fadeOut = ") && why.hasSuffix("must be 0…3600 s")
        }
        #expect(throws: SoundEngineError.self) { try TimeArgument.frames(duration, "x", sampleRate: 48_000) }
        // Unchecked, it saturates instead of trapping.
        #expect((0...Int(Int32.max)).contains(TimeArgument.frames(duration, sampleRate: 48_000)))
    }

    @Test func insideTheRangeConvertsToTheNearestFrame() throws {
        #expect(try TimeArgument.frames(.zero, "x", sampleRate: 48_000) == 0)
        #expect(try TimeArgument.frames(.milliseconds(10), "x", sampleRate: 48_000) == 480)
        #expect(try TimeArgument.frames(.seconds(3600), "x", sampleRate: 384_000) == 1_382_400_000)
        #expect(try TimeArgument.frames(.microseconds(10), "x", sampleRate: 48_000) == 0)
        #expect(try TimeArgument.frames(.microseconds(11), "x", sampleRate: 48_000) == 1)
    }

    @Test func aShorterLimitIsNamedInTheError() {
        #expect(throws: SoundEngineError.invalidParameter("suspend fadeOut = 11 s: must be 0…10 s")) {
            try TimeArgument.check(.seconds(11), "suspend fadeOut", limit: .seconds(10))
        }
        #expect(throws: SoundEngineError.invalidParameter("interpolation = -1.5 s: must be 0…3600 s")) {
            try TimeArgument.check(.milliseconds(-1500), "interpolation")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1e-9, 3600.000_001, 1e300, -.greatestFiniteMagnitude])
    func secondsOutsideTheRangeAreRefused(seconds: Double) {
        #expect { try TimeArgument.duration(seconds: seconds, "marker time") } throws: { error in
            guard case .invalidParameter(let why)? = error as? SoundEngineError else { return false }
            return why.hasPrefix("marker time = ")
        }
    }

    @Test func secondsInsideTheRangeConvert() throws {
        #expect(try TimeArgument.duration(seconds: 0.25, "x") == .milliseconds(250))
        #expect(try TimeArgument.duration(seconds: 3600, "x") == .seconds(3600))
    }
}
