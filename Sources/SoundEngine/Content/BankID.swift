package import SoundContent

extension SoundEngine {
    /// A loaded bank (Wwise `AkBankID`): the Wwise short ID of the bank's
    /// name (FNV-1 of the lower-cased name), so the same bank has the same ID
    /// in every run.
    public struct BankID: Hashable, Sendable, CustomStringConvertible {
        /// The short ID of the bank's name.
        public let rawValue: UInt32

        /// The ID a bank named `name` gets.
        public init(name: String) { rawValue = ContentID(name).rawValue }

        /// Wraps a stored ID.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        package init(_ id: ContentID) { rawValue = id.rawValue }

        /// The ID as the content model keys it.
        package var id: ContentID { ContentID(rawValue: rawValue) }

        public var description: String { "bank \(rawValue)" }
    }
}
