/// The characters widgets draw with: Unicode block characters when the
/// terminal's locale is UTF-8, plain ASCII otherwise (a C/POSIX locale, an
/// old console, a log file).
public struct Glyphs: Hashable, Sendable {
    /// Whether these are the Unicode glyphs.
    public let isUnicode: Bool
    /// Marks text cut short (`…` or `~`).
    public let ellipsis: Character
    /// A filled level-bar cell.
    public let barFull: Character
    /// An empty level-bar cell.
    public let barEmpty: Character
    /// A level bar's peak marker.
    public let peakMark: Character
    /// Sparkline levels, lowest first.
    public let sparkLevels: [Character]

    /// Block characters: `▁▂▃▄▅▆▇█`, `█`, `·`, `…`.
    public static let unicode = Glyphs(
        isUnicode: true, ellipsis: "…", barFull: "█", barEmpty: "·", peakMark: "|",
        sparkLevels: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"])
    /// ASCII only: `_.-=+*#@`, `#`, `-`, `~`.
    public static let ascii = Glyphs(
        isUnicode: false, ellipsis: "~", barFull: "#", barEmpty: "-", peakMark: "|",
        sparkLevels: ["_", ".", "-", "=", "+", "*", "#", "@"])

    /// The glyphs for the locale in `environment`: the first of `LC_ALL`,
    /// `LC_CTYPE`, `LANG` that is set decides; UTF-8 (`UTF-8` or `utf8` in
    /// its name) gives ``unicode``, anything else or nothing ``ascii``.
    public static func forLocale(environment: [String: String]) -> Glyphs {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = locale.lowercased()
        return name.contains("utf-8") || name.contains("utf8") ? .unicode : .ascii
    }

    /// `text` cut to at most `width` characters, the last one ``ellipsis``
    /// when it was cut.
    public func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard text.count > width else { return text }
        return String(text.prefix(width - 1)) + String(ellipsis)
    }
}
