/// What the backend and mixer have been told, so that the policy sends only changes.
struct AppliedEffects: Hashable, Sendable {
    /// Our streams' properties; `nil` before the first connection and after a loss.
    var streamProperties: StreamProperties?
    var captureOpen = false
    var output: EndpointID?
    var input: EndpointID?
    /// Other streams we ducked.
    var ducked: Set<StreamID> = []
    /// Whether we silence other apps (non-mixable and active).
    var holdsOthersSilent = false
    var engine = EngineState.paused(.notConnected)

    /// The server-side part emptied: after a loss the new server has none of it.
    mutating func forgetServerState() {
        streamProperties = nil
        captureOpen = false
        output = nil
        input = nil
        ducked = []
        holdsOthersSilent = false
    }
}
