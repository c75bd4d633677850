/// Identifies a bus of a ``Mixer``'s bus tree. Buses live as long as the mixer.
public struct BusID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the bus in the mixer's bus table; the master bus is 0.
    package let index: UInt32

    /// Makes an ID; games get IDs from ``Mixer/createBus(name:parent:)``.
    package init(index: UInt32) {
        self.index = index
    }

    /// The master bus: the root of the tree, whose output is the mixer's output.
    public static let master = BusID(index: 0)

    /// "bus master" or "bus index", for logs.
    public var description: String { index == 0 ? "bus master" : "bus \(index)" }
}
