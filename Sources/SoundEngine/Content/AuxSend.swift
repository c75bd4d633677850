extension SoundEngine {
    /// One game-defined aux send of a game object (Wwise `AkAuxSendValue`):
    /// its voices' output, after their volume, pan and filter, times `level`
    /// also goes into the aux bus `bus` (a bank bus with `"aux": true`,
    /// typically carrying a reverb). A level of 0.5 puts the dry signal into
    /// the aux bus at −6 dB.
    public struct AuxSend: Hashable, Sendable {
        /// The aux bus, by name or Wwise short ID.
        public var bus: ContentReference
        /// Linear gain, 0…16 (Wwise's control value; 1 = the dry level).
        public var level: Float

        /// A send of `level` to `bus`.
        public init(bus: ContentReference, level: Float) {
            self.bus = bus
            self.level = level
        }
    }
}
