/// The inputs and outputs the session uses: AVAudioSession's `RouteDescription`.
///
/// `outputs` is empty in categories without output (record, audioProcessing)
/// and when no output fits; in multiRoute it lists every eligible output, the
/// first being where the engine's stream plays.
public struct RouteDescription: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The inputs in use, at most one except in multiRoute.
    public var inputs: [PortDescription]
    /// The outputs in use.
    public var outputs: [PortDescription]

    /// Creates a route.
    public init(inputs: [PortDescription] = [], outputs: [PortDescription] = []) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// No inputs and no outputs.
    public static let empty = RouteDescription()

    /// The inputs and outputs, each as its port description.
    public var description: String {
        "inputs: [\(inputs.map(\.description).joined(separator: ", "))], "
            + "outputs: [\(outputs.map(\.description).joined(separator: ", "))]"
    }
}
