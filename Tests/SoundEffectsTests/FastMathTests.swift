import Foundation
import SoundEffects
import Testing

/// The render path's approximations against Foundation, over each one's
/// whole stated domain (dense grids, errors measured in Double).
@Suite struct FastMathTests {
    @Test func exp2RelativeErrorOverItsDomain() {
        var worst = 0.0
        var x: Float = -126
        while x < 127.99 {
            let e = abs(Double(fastExp2(x)) / exp2(Double(x)) - 1)
            worst = max(worst, e)
            x += 0.000_731
        }
        for i in -126...127 { #expect(fastExp2(Float(i)) == Float(exp2(Double(i)))) }
        #expect(fastExp2(0) == 1)
        #expect(fastExp2(-.infinity) > 0 && fastExp2(.nan) > 0 && fastExp2(.infinity).isFinite)
        print("fastExp2 max relative error: \(worst)")
        #expect(worst <= 2e-7)
    }

    @Test func log2AbsoluteErrorOverItsDomain() {
        // Error beyond half a float ulp of the result (which no Float result can beat).
        var worst = 0.0
        var x: Float = 1.2e-38
        while x < 3e38 {
            let exact = log2(Double(x))
            worst = max(worst, abs(Double(fastLog2(x)) - exact) - Double(Float(exact).ulp) / 2)
            x *= 1.000_37
        }
        var y: Float = 0.5  // dense around 1, where the result is near 0
        while y < 2 {
            let exact = log2(Double(y))
            worst = max(worst, abs(Double(fastLog2(y)) - exact) - Double(Float(exact).ulp) / 2)
            y += 1e-6
        }
        #expect(fastLog2(1) == 0)
        #expect(fastLog2(0) == -126 && fastLog2(-1) == -126 && fastLog2(.nan) == -126)
        print("fastLog2 max absolute error beyond half an ulp of the result: \(worst)")
        #expect(worst <= 1.5e-7)
    }

    @Test func sinPiRelativeErrorOverItsDomain() {
        var worst = 0.0
        var r: Float = 1e-6
        while r <= 0.5 {
            let e = abs(Double(fastSinPi(r)) / sin(Double.pi * Double(r)) - 1)
            worst = max(worst, e)
            #expect(fastSinPi(-r) == -fastSinPi(r))
            r += 1.3e-6
        }
        print("fastSinPi max relative error: \(worst)")
        #expect(worst <= 2.5e-7)
    }

    @Test func tanRelativeErrorOverItsDomain() {
        var worst = 0.0
        var r: Float = 1e-6
        while r <= 0.4999 {
            let e = abs(Double(fastTanPi(r)) / tan(Double.pi * Double(r)) - 1)
            worst = max(worst, e)
            r += 1.1e-6
        }
        var worstTan = 0.0  // fastTan(x): x/π is rounded to Float first; near π/2 that rounding dominates
        var x: Float = 1e-5
        while x < 0.49 * .pi {
            worstTan = max(worstTan, abs(Double(fastTan(x)) / tan(Double(x)) - 1))
            x += 3.7e-6
        }
        print("fastTanPi max relative error: \(worst); fastTan: \(worstTan)")
        #expect(worst <= 5e-7)
        #expect(worstTan <= 4e-6)
    }

    @Test func decibelConversionsOverTheirDomains() {
        // Within ±120 dB (every level the effects use) and over ±300 dB.
        func gainError(_ range: ClosedRange<Float>) -> Double {
            var worst = 0.0
            var d = range.lowerBound
            while d <= range.upperBound {
                worst = max(worst, abs(Double(fastDecibelsToGain(d)) / pow(10, Double(d) / 20) - 1))
                d += 0.000_97
            }
            return worst
        }
        func decibelError(_ range: ClosedRange<Float>) -> Double {
            var worst = 0.0
            var g = range.lowerBound
            while g < range.upperBound {
                worst = max(worst, abs(Double(fastGainToDecibels(g)) - 20 * log10(Double(g))))
                g *= 1.000_13
            }
            return worst
        }
        let gainNear = gainError(-120...120), gainFar = gainError(-300...300)
        let decibelNear = decibelError(1e-6...1e6), decibelFar = decibelError(1e-15...1e15)
        #expect(fastDecibelsToGain(0) == 1 && fastGainToDecibels(1) == 0)
        print(
            "fastDecibelsToGain max relative error: \(gainNear) (±120 dB), \(gainFar) (±300 dB); "
                + "fastGainToDecibels max error: \(decibelNear) dB (10⁻⁶…10⁶), \(decibelFar) dB (10⁻¹⁵…10¹⁵)")
        #expect(gainNear <= 9e-7)
        #expect(gainFar <= 2e-6)
        #expect(decibelNear <= 1.2e-5)
        #expect(decibelFar <= 3.5e-5)
    }
}
