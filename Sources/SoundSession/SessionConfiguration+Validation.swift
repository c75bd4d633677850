package import SoundCore

extension SessionConfiguration {
    /// Checks the configuration as iOS's `setCategory(_:mode:policy:options:)`
    /// and `setActive(_:options:)` would; throws the first problem found.
    ///
    /// Every refusal is `invalidParameter` (iOS's `-50`, `badParam`): the
    /// combination is wrong in itself, whatever the current state. The reason
    /// names the field, the value and what would be accepted.
    package func validate() throws(SoundEngineError) {
        try Self.checkKnownBits(categoryOptions, field: "categoryOptions")
        try Self.checkKnownBits(setActiveOptions, field: "setActiveOptions")
        try Self.checkKnownBits(behavior, field: "behavior")
        guard category.allows(mode) else {
            throw .invalidParameter(
                "mode \(mode) is not allowed with category \(category); "
                    + "\(category) allows modes \(category.allowedModes.map(\.name).joined(separator: ", "))")
        }
        let refused = categoryOptions.subtracting(category.settableOptions)
        guard refused.isEmpty else {
            throw .invalidParameter(
                "categoryOptions \(refused) are not allowed with category \(category); "
                    + "\(category) allows \(category.settableOptions)")
        }
        try checkRouteSharingPolicy()
    }

    private func checkRouteSharingPolicy() throws(SoundEngineError) {
        switch routeSharingPolicy {
        case .default:
            return
        case .independent:
            throw .invalidParameter("routeSharingPolicy independent is set by the system; apps may not request it")
        case .longFormAudio, .longFormVideo:
            guard category == .playback else {
                throw .invalidParameter(
                    "routeSharingPolicy \(routeSharingPolicy) needs category playback, not \(category)")
            }
            guard [.default, .moviePlayback, .spokenAudio].contains(mode) else {
                throw .invalidParameter(
                    "routeSharingPolicy \(routeSharingPolicy) needs mode default, moviePlayback or spokenAudio, "
                        + "not \(mode)")
            }
            guard categoryOptions.isEmpty else {
                throw .invalidParameter(
                    "routeSharingPolicy \(routeSharingPolicy) allows no categoryOptions, got \(categoryOptions)")
            }
        }
    }

    private static func checkKnownBits<Options: NamedOptionSet>(
        _ options: Options, field: String
    ) throws(SoundEngineError) {
        let unknown = options.unknownBits
        guard unknown == 0 else {
            throw .invalidParameter("\(field) has unknown bits 0x\(String(unknown, radix: 16))")
        }
    }
}
