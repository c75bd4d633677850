/// The plain ANSI/VT100 control sequences TerminalUI writes: nothing a
/// terminal over SSH or inside tmux/screen lacks (no terminfo, no mouse).
public enum ANSI {
    /// Control Sequence Introducer, `ESC [`.
    public static let csi = "\u{1B}["
    /// Switch to the alternate screen, clear it, hide the cursor, home it.
    public static let enterSequence: StaticString = "\u{1B}[?1049h\u{1B}[2J\u{1B}[?25l\u{1B}[H"
    /// Reset attributes, show the cursor, leave the alternate screen. Written
    /// from signal handlers, so a `StaticString` (no allocation).
    public static let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// Clear the whole screen.
    public static let clearScreen = "\u{1B}[2J"

    /// Move the cursor to `row`, `column` (both counted from 0).
    public static func moveTo(row: Int, column: Int) -> String { "\(csi)\(row + 1);\(column + 1)H" }

    /// Select Graphic Rendition for `style`: resets, then sets its attributes and colour.
    public static func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.attributes.contains(.bold) { codes.append("1") }
        if style.attributes.contains(.dim) { codes.append("2") }
        if style.attributes.contains(.underline) { codes.append("4") }
        if style.attributes.contains(.reverse) { codes.append("7") }
        if let code = style.foreground.code { codes.append(String(30 + code)) }
        return csi + codes.joined(separator: ";") + "m"
    }
}
