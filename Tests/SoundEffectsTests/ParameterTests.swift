import Foundation
import SoundEffects
import Testing

@Suite struct ParameterTests {
    /// Every kind's defaults validate, and the descriptions cover the used slots in order.
    @Test(arguments: EffectKind.allCases)
    func defaultsAreValid(kind: EffectKind) throws {
        let info = kind.parameters
        #expect(info.count == kind.parameterCount)
        #expect(info.map(\.index) == Array(0..<kind.parameterCount))
        #expect(Set(info.map(\.name)).count == info.count)
        _ = try EffectParameters.defaults(for: kind).validated(as: kind)
        for i in info { #expect(i.minimum < i.maximum && i.defaultValue >= i.minimum && i.defaultValue <= i.maximum) }
    }

    /// The constructors give the defaults when called with none.
    @Test func constructorsMatchDefaults() throws {
        let built: [(EffectKind, EffectParameters)] = [
            (.compressor, try .compressor()), (.limiter, try .limiter()), (.delay, try .delay()), (.reverb, try .reverb()),
        ]
        for (kind, p) in built {
            for i in 0..<kind.parameterCount { #expect(p[i] == EffectParameters.defaults(for: kind)[i], "\(kind) \(i)") }
        }
    }

    /// NaN, infinities, out-of-range and non-whole discrete values throw an
    /// error that names the field.
    @Test func badValuesNameTheField() {
        func field(_ body: @autoclosure () throws(EffectParameterError) -> EffectParameters) -> String? {
            do {
                _ = try body()
                return nil
            } catch { return error.field }
        }
        #expect(field(try .compressor(ratio: .nan)) == "ratio")
        #expect(field(try .compressor(threshold: 3)) == "threshold")
        #expect(field(try .compressor(attack: 0.01)) == "attack")
        #expect(field(try .limiter(ceiling: .infinity)) == "ceiling")
        #expect(field(try .limiter(lookahead: 11)) == "lookahead")
        #expect(field(try .delay(time: 2001)) == "time")
        #expect(field(try .delay(feedback: 0.99)) == "feedback")
        #expect(field(try .reverb(rt60: -.infinity)) == "rt60")
        #expect(field(try .reverb(wet: 1.5)) == "wet")
        #expect(field(try .parametricEQ(bands: [EQBand(.peak, frequency: 1000, gain: 30)])) == "band1Gain")
        #expect(field(try .parametricEQ(bands: [.init(.peak, frequency: 100), .init(.notch, frequency: 10)])) == "band2Frequency")
        #expect(field(try .parametricEQ(bands: [EQBand(.lowPass, frequency: 100, q: 0)])) == "band1Q")
        #expect(field(try .parametricEQ(bands: [], outputGain: .nan)) == "outputGain")
        #expect(field(try .parametricEQ(bands: Array(repeating: EQBand(.peak, frequency: 100), count: 7))) == "bands")
        var p = EffectParameters.defaults(for: .parametricEQ)
        p[EffectParameters.EQ.type(band: 2)] = 2.5
        #expect(field(try p.validated(as: .parametricEQ)) == "band3Type")
        do {
            _ = try EffectParameters.compressor(ratio: .nan)
        } catch {
            #expect(error.message.contains("compressor") && error.message.contains("ratio") && error.message.contains("NaN"))
            print("example error: \(error)")
        }
    }

    /// The render side clamps what it is given: out-of-range values to the
    /// range, a NaN keeps the previous target.
    @Test func setTargetClamps() throws {
        let h = EffectHarness(.compressor, try .compressor(ratio: 8))
        var p = h.effect.target
        p.compressorRatio = .nan
        p.compressorThreshold = -100
        p.compressorKnee = 1000
        h.effect.setTarget(p, rampFrames: 0)
        #expect(h.effect.target.compressorRatio == 8)
        #expect(h.effect.target.compressorThreshold == -60)
        #expect(h.effect.target.compressorKnee == 24)
    }

    /// A ramp reaches its target exactly after `rampFrames` (and the 10 ms
    /// minimum applies to shorter ones); log parameters pass their geometric mean halfway.
    @Test func rampsReachTheirTargets() throws {
        let h = EffectHarness(.delay, try .delay(time: 100))
        var p = h.effect.target
        p.delayTime = 400
        p.delayWet = 1
        h.effect.setTarget(p, rampFrames: 4096)
        var x = [[Float](repeating: 0, count: 2048)]
        h.process(&x, quantum: 2048)
        #expect(abs(h.effect.current.delayTime - 200) < 0.01)
        #expect(abs(h.effect.current.delayWet - 0.75) < 1e-6)
        h.process(&x, quantum: 2048)
        #expect(h.effect.current.delayTime == 400 && h.effect.current.delayWet == 1)
        p.delayWet = 0
        h.effect.setTarget(p, rampFrames: 0)
        var short = [[Float](repeating: 0, count: 256)]
        h.process(&short)
        #expect(h.effect.current.delayWet > 0.4)  // not at once: 10 ms = 480 frames
        h.process(&short)
        #expect(h.effect.current.delayWet == 0)
    }
}
