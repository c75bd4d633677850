/// How a cell is drawn: attributes and a foreground colour from the eight
/// basic ANSI colours (what every terminal has).
public struct Style: Hashable, Sendable {
    /// Text attributes, combinable.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// SGR 1.
        public static let bold = Attributes(rawValue: 1 << 0)
        /// SGR 2 (faint).
        public static let dim = Attributes(rawValue: 1 << 1)
        /// SGR 4.
        public static let underline = Attributes(rawValue: 1 << 2)
        /// SGR 7 (inverse video): title bars, selected rows.
        public static let reverse = Attributes(rawValue: 1 << 3)
    }

    /// A foreground colour (SGR 30–37), or the terminal's default (SGR 39).
    public enum Color: Hashable, Sendable {
        case `default`, black, red, green, yellow, blue, magenta, cyan, white

        /// The offset from 30 of the SGR code; nil for the default colour.
        var code: Int? {
            switch self {
            case .default: nil
            case .black: 0
            case .red: 1
            case .green: 2
            case .yellow: 3
            case .blue: 4
            case .magenta: 5
            case .cyan: 6
            case .white: 7
            }
        }
    }

    /// The attributes.
    public var attributes: Attributes
    /// The foreground colour.
    public var foreground: Color

    /// A style; by default plain text in the terminal's colours.
    public init(_ attributes: Attributes = [], foreground: Color = .default) {
        self.attributes = attributes
        self.foreground = foreground
    }

    /// Plain text.
    public static let plain = Style()
    /// Bold text.
    public static let bold = Style(.bold)
    /// Faint text.
    public static let dim = Style(.dim)
    /// Inverse video: bars and the selection.
    public static let reverse = Style(.reverse)
}
