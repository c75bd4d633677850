import Foundation

/// The shared low-pass's tables, computed on the control side when the
/// mixer is made.
enum LowPassBank {
    /// Bands per octave.
    static let bandsPerOctave = 8
    /// The lowest band's cutoff (Hz): ``LowPass/cutoffRange``'s lower end.
    static let lowestCutoff: Double = Double(LowPass.cutoffRange.lowerBound)
    /// The cutoff of band `band`, in Hz.
    static func cutoff(ofBand band: Double) -> Double {
        lowestCutoff * exp2(band / Double(bandsPerOctave))
    }

    struct Tables {
        var bands: Int
        var coefficients: UnsafeMutablePointer<Float>
        var bounds: UnsafeMutablePointer<Float>
        var capacity: Int
        var planes: UnsafeMutablePointer<Float>
        var free: UnsafeMutablePointer<Int16>
    }

    static func make(_ c: MixerConfiguration) -> Tables {
        let top = Double(LowPass.cutoffRange.upperBound) / lowestCutoff
        let bands = Int((log2(top) * Double(bandsPerOctave)).rounded(.up)) + 1
        let coefficients = UnsafeMutablePointer<Float>.allocate(capacity: bands)
        let bounds = UnsafeMutablePointer<Float>.allocate(capacity: bands)
        for b in 0..<bands {
            coefficients[b] = LowPass.coefficient(cutoffHz: Float(cutoff(ofBand: Double(b))), sampleRate: c.sampleRate)
            bounds[b] = LowPass.coefficient(cutoffHz: Float(cutoff(ofBand: Double(b) + 0.5)), sampleRate: c.sampleRate)
        }
        let capacity = c.sharedLowPass ? min(max(0, c.sharedLowPassFilters), c.maxBuses * bands, Int(Int16.max)) : 0
        let floats = max(1, capacity * 2 * c.quantumFrames)
        let planes = UnsafeMutableRawPointer.allocate(byteCount: floats * 4, alignment: 64)
            .initializeMemory(as: Float.self, repeating: 0, count: floats)
        let free = UnsafeMutablePointer<Int16>.allocate(capacity: max(1, capacity))
        // Popped from the end: filter 0 first.
        for i in 0..<capacity { free[i] = Int16(capacity - 1 - i) }
        return Tables(
            bands: bands, coefficients: coefficients, bounds: bounds, capacity: capacity, planes: planes, free: free)
    }
}
