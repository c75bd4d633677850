import CPulseAudio

/// The stream-timing and buffer calls the click-free transitions need
/// (docs/pulseaudio.md, "Transitions without clicks").
extension PAStream {
    /// `pa_stream_flush`: drops what is buffered on the server and not yet
    /// played (after the fade-out has been heard it is silence). Lock held.
    func flush(_ cb: SuccessCallback?, _ userdata: UnsafeMutableRawPointer?) -> PAOperation? {
        pa_stream_flush(raw, cb, userdata).map(PAOperation.init)
    }

    /// `pa_stream_update_timing_info`: asks the server for fresh read/write
    /// indices and latencies. Lock held.
    func updateTimingInfo(_ cb: SuccessCallback?, _ userdata: UnsafeMutableRawPointer?) -> PAOperation? {
        pa_stream_update_timing_info(raw, cb, userdata).map(PAOperation.init)
    }

    /// The write index of the last timing update, advanced by every write
    /// since, as a time from the start of the stream; `nil` when libpulse
    /// marks it unknown (after a flush, before the next update). Lock held.
    var writtenMicroseconds: UInt64? {
        guard let info = pa_stream_get_timing_info(raw), info.pointee.write_index_corrupt == 0,
            let spec = pa_stream_get_sample_spec(raw)
        else { return nil }
        let index = info.pointee.write_index
        return index <= 0 ? 0 : pa_bytes_to_usec(UInt64(index), spec)
    }

    /// The time, from the start of the stream, of the sample the last timing
    /// update said was being heard: its read index less the sink's latency,
    /// with no interpolation and no transport estimate (which only move it
    /// later). `pa_stream_get_time` interpolates between updates and never
    /// goes back, so once it ran ahead of a late server it stays ahead;
    /// this does not. `nil` when the read index is unknown. Lock held.
    var heardAtLastUpdateMicroseconds: UInt64? {
        guard let info = pa_stream_get_timing_info(raw), info.pointee.read_index_corrupt == 0,
            let spec = pa_stream_get_sample_spec(raw)
        else { return nil }
        let index = info.pointee.read_index
        let read = index <= 0 ? 0 : pa_bytes_to_usec(UInt64(index), spec)
        let sink = info.pointee.sink_usec
        return read > sink ? read - sink : 0
    }

    /// `pa_stream_get_time`: the time, from the start of the stream, of the
    /// sample being heard now (the device's latency accounted for,
    /// interpolated between timing updates); `nil` before timing info. Lock held.
    var playedMicroseconds: UInt64? {
        var usec: pa_usec_t = 0
        guard pa_stream_get_time(raw, &usec) == 0 else { return nil }
        return usec
    }

    /// `pa_stream_get_latency` for the write callback: `.max` when unknown.
    /// libpulse computes it from the timing info it holds; no lock of ours, no allocation.
    @_noLocks @_noAllocation
    func renderLatencyMicroseconds() -> UInt64 {
        _unsafePerformance {
            var usec: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(raw, &usec, &negative) == 0 else { return .max }
            return negative != 0 ? 0 : usec
        }
    }
}
