/// Another client's playback stream: a PulseAudio sink-input index
/// (`pa_sink_input_info.index`).
package typealias StreamID = ServerIndex<SinkInputKind>

/// The kind of ``StreamID``: a sink input.
package enum SinkInputKind: ServerObjectKind {
    /// Prints as `stream 7`.
    package static var label: String { "stream" }
}
