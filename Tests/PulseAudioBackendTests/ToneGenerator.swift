import Foundation
import SoundCore

/// A sine render function for backend tests, in plain memory so the render
/// thread touches no Swift objects. (The allocation test counts around the
/// backend's whole write callback, not in here: see WriteCallbackCounter.)
struct ToneState {
    var phase: Double = 0
    var step: Double
    var amplitude: Float
    var channels: Int
    var format: SampleFormat
}

final class ToneGenerator {
    let state: UnsafeMutablePointer<ToneState>

    init(frequency: Double, amplitude: Float, format: StreamFormat) {
        state = .allocate(capacity: 1)
        state.initialize(to: ToneState(
            step: 2 * Double.pi * frequency / Double(format.sampleRate), amplitude: amplitude,
            channels: format.channelCount, format: format.sampleFormat))
    }

    deinit { state.deallocate() }

    var entry: RenderEntry { RenderEntry(function: toneRender, context: UnsafeMutableRawPointer(state)) }
}

private func toneRender(_ context: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer, _ frames: Int) {
    let tone = context!.assumingMemoryBound(to: ToneState.self)
    var phase = tone.pointee.phase
    let step = tone.pointee.step
    let amplitude = tone.pointee.amplitude
    let channels = tone.pointee.channels
    switch tone.pointee.format {
    case .float32:
        let out = destination.assumingMemoryBound(to: Float.self)
        for f in 0..<frames {
            let v = amplitude * Float(sin(phase))
            for c in 0..<channels { out[f * channels + c] = v }
            phase += step
        }
    case .int16:
        let out = destination.assumingMemoryBound(to: Int16.self)
        for f in 0..<frames {
            let v = Int16(amplitude * Float(sin(phase)) * 32767)
            for c in 0..<channels { out[f * channels + c] = v }
            phase += step
        }
    }
    tone.pointee.phase = phase.truncatingRemainder(dividingBy: 2 * Double.pi)
}
