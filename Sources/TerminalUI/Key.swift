/// A key the user pressed, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
    /// A printable character: a letter, digit, punctuation, space, or any
    /// Unicode character typed.
    case character(Character)
    /// Ctrl with a letter (`"a"`…`"z"`, lowercase): Ctrl-C is `.control("c")`.
    /// Tab, Enter and Backspace, which share their bytes, are their own cases.
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// Tab (`0x09`).
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    /// Enter or Return (`0x0D`, or `0x0A`).
    case enter
    /// Escape alone (`0x1B` with nothing after it).
    case escape
    /// Backspace (`0x7F`, or `0x08`).
    case backspace
    /// A function key, F1…F12.
    case function(Int)
    /// A sequence this decoder does not know (its bytes, for logging).
    case unknown([UInt8])

    /// Ctrl-C.
    public static let controlC = Key.control("c")
}
