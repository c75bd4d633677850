/// A client of the sound server: a PulseAudio client index
/// (`pa_context_get_index`, `pa_sink_input_info.client`).
package typealias ClientID = ServerIndex<ClientKind>

/// The kind of ``ClientID``: a client connection.
package enum ClientKind: ServerObjectKind {
    /// Prints as `client 7`.
    package static var label: String { "client" }
}
