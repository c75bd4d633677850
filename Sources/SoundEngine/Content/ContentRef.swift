import SoundContent
import SoundCore

/// A name or an ID, as the game passed it; resolves against one kind of
/// definition and names itself in errors.
enum ContentRef: CustomStringConvertible {
    case name(String)
    case id(ContentID)

    var key: ContentID {
        switch self {
        case .name(let n): ContentID(n)
        case .id(let id): id
        }
    }

    /// `'Name'` or `ID 123`.
    var description: String {
        switch self {
        case .name(let n): "'\(n)'"
        case .id(let id): "\(id)"
        }
    }

    /// Whether `name` is what this refers to: a name must match the found
    /// definition's (ignoring case, as its ID does), so two names that
    /// happen to share a hash never stand for each other.
    func matches(_ name: String) -> Bool {
        switch self {
        case .name(let n): ContentID.sameName(n, name)
        case .id(let id): id == ContentID(name)
        }
    }

    /// The definition in `table`, or `idNotFound("<kind> <self>")`.
    func resolve<T: Sendable>(_ table: [ContentID: Owned<T>], _ kind: String, name: (T) -> String) throws(SoundEngineError)
        -> Owned<T>
    {
        guard let found = table[key], matches(name(found.value)) else { throw .idNotFound("\(kind) \(self)") }
        return found
    }
}
