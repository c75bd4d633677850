package import SoundContent
import SoundCore

extension SoundEngine {
    /// A bank definition as the game names it — an event, an RTPC, a state
    /// or switch group and its values — by name or by Wwise short ID.
    ///
    /// Written as a string literal (interpolation included):
    ///
    /// ```swift
    /// try SoundEngine.postEvent("Play_Footstep", on: player)
    /// try SoundEngine.setSwitch("Surface", "\(surface)", on: player)
    /// let event = SoundEngine.ContentReference(eventName)   // a name in a variable
    /// try SoundEngine.postEvent(.id(3_482_104_293), on: player)   // a Wwise short ID
    /// ```
    ///
    /// A name matches a definition whatever its letter case, as Wwise's IDs
    /// do; the name must also be the definition's own (two names whose IDs
    /// collide never stand for each other). Errors name the reference as it
    /// was written: `event 'Play_Footsep'`, `event ID 123`.
    public struct ContentReference: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
        /// The name as written, `nil` for a reference by ID.
        public let name: String?
        /// The Wwise short ID: FNV-1 (32-bit) of the lower-cased UTF-8 name
        /// (`AK::SoundEngine::GetIDFromString`).
        public let id: UInt32

        /// A reference by name.
        public init(_ name: String) {
            self.name = name
            id = ContentID(name).rawValue
        }

        /// A reference by name, from a string literal.
        public init(stringLiteral name: String) { self.init(name) }

        /// A reference by name, from an interpolated string literal.
        public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

        private init(id: UInt32) {
            name = nil
            self.id = id
        }

        /// A reference by Wwise short ID (for IDs a game's tools computed).
        public static func id(_ id: UInt32) -> ContentReference { ContentReference(id: id) }

        /// A reference by the content model's ID.
        package static func id(_ id: ContentID) -> ContentReference { ContentReference(id: id.rawValue) }

        /// A reference by name (the engine's own calls).
        package static func name(_ name: String) -> ContentReference { ContentReference(name) }

        /// The ID the content tables are keyed by.
        package var key: ContentID { ContentID(rawValue: id) }

        /// `'Name'` or `ID 123`.
        public var description: String { name.map { "'\($0)'" } ?? "ID \(id)" }

        /// Whether `definition` is what this refers to: a name must match the
        /// found definition's (ignoring case, as its ID does), so two names that
        /// happen to share a hash never stand for each other.
        package func matches(_ definition: String) -> Bool {
            if let name { ContentID.sameName(name, definition) } else { id == ContentID(definition).rawValue }
        }

        /// The definition in `table`, or `idNotFound("<kind> <self>")`.
        func resolve<T: Sendable>(_ table: [ContentID: Owned<T>], _ kind: String, name: (T) -> String)
            throws(SoundEngineError) -> Owned<T>
        {
            guard let found = table[key], matches(name(found.value)) else { throw .idNotFound("\(kind) \(self)") }
            return found
        }
    }
}

/// The engine's short name for it.
typealias ContentRef = SoundEngine.ContentReference
