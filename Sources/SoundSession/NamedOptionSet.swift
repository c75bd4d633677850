/// An option set whose single options have names, so a value prints as
/// `[mixWithOthers, duckOthers]` instead of `CategoryOptions(rawValue: 3)`.
protocol NamedOptionSet: OptionSet, CustomStringConvertible where RawValue: FixedWidthInteger {
    /// Every named option, in printing order. Composite options (one that
    /// contains another, like `interruptSpokenAudioAndMixWithOthers`) come
    /// first so they print instead of their parts.
    static var namedOptions: [(option: Self, name: String)] { get }
}

extension NamedOptionSet {
    /// The names of the options in this set; bits no name covers print as hex.
    var optionNames: [String] {
        var remaining = rawValue
        var names: [String] = []
        for (option, name) in Self.namedOptions where option.rawValue & remaining == option.rawValue {
            guard option.rawValue != 0 else { continue }
            names.append(name)
            remaining &= ~option.rawValue
        }
        if remaining != 0 {
            names.append("0x" + String(remaining, radix: 16))
        }
        return names
    }

    /// The bits of this set that no named option covers.
    var unknownBits: RawValue {
        Self.namedOptions.reduce(rawValue) { $0 & ~$1.option.rawValue }
    }

    /// The option names in brackets, e.g. `[mixWithOthers, duckOthers]`.
    public var description: String { "[" + optionNames.joined(separator: ", ") + "]" }
}
