/// A loaded bank (Wwise `AkBankID`): the ``ContentID`` of the bank's name, so
/// the same bank has the same ID in every run.
public struct BankID: Hashable, Sendable, CustomStringConvertible {
    /// The ID of the bank's name.
    public let id: ContentID

    /// The ID a bank named `name` gets.
    public init(name: String) { id = ContentID(name) }

    /// Wraps a stored ID.
    public init(_ id: ContentID) { self.id = id }

    public var description: String { "bank \(id.rawValue)" }
}
