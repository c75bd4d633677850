package import SoundCore
import SoundSession

extension InitSettings {
    /// Throws `invalidParameter` naming the first field out of range.
    /// ``SoundEngine/initialize(_:_:)`` calls this; call it yourself to check
    /// settings read from a file before you use them.
    public func validate() throws(SoundEngineError) {
        try require(
            (64...8192).contains(samplesPerFrame) && samplesPerFrame & (samplesPerFrame - 1) == 0,
            "InitSettings.samplesPerFrame", samplesPerFrame, "must be a power of two between 64 and 8192")
        try require(
            commandQueueSize > 0, "InitSettings.commandQueueSize", commandQueueSize, "must be more than 0 bytes")
        try require(
            commandQueueSize <= 64 << 20, "InitSettings.commandQueueSize", commandQueueSize, "must be at most 64 MiB")
        try require((1...65_536).contains(maxVoices), "InitSettings.maxVoices", maxVoices, "must be 1…65536")
        if let maxAudibleVoices {
            try require(
                (1...maxVoices).contains(maxAudibleVoices), "InitSettings.maxAudibleVoices", maxAudibleVoices,
                "must be 1…maxVoices (\(maxVoices)), or nil for no limit below it")
        }
        try require((1...1024).contains(maxBuses), "InitSettings.maxBuses", maxBuses, "must be 1…1024")
        try require((1...65_536).contains(maxSounds), "InitSettings.maxSounds", maxSounds, "must be 1…65536")
        try require((0...256).contains(maxStreams), "InitSettings.maxStreams", maxStreams, "must be 0…256")
        if profiler.allowsEdits && !profiler.enabled {
            throw .invalidParameter("InitSettings.profiler.allowsEdits is true but enabled is false: edits travel over the link")
        }
    }
}

extension PlatformInitSettings {
    /// Throws `invalidParameter` naming the first field out of range, or the
    /// session error (`invalidParameter`, `incompatibleCategory`) for an
    /// option or mode the category does not allow.
    public func validate() throws(SoundEngineError) {
        try require(
            (8000...192_000).contains(sampleRate), "PlatformInitSettings.sampleRate", sampleRate,
            "must be 8000…192000 Hz")
        try require(
            (0...8).contains(channelCount), "PlatformInitSettings.channelCount", channelCount,
            "must be 0 (the device's layout) or 1…8")
        try require(
            (1...8).contains(inputChannelCount), "PlatformInitSettings.inputChannelCount", inputChannelCount, "must be 1…8")
        if let problem = latency.problem { throw .invalidParameter("PlatformInitSettings.latency.\(problem)") }
        if let priority = realtimePriority, !(1...99).contains(priority) {
            throw .invalidParameter("PlatformInitSettings.realtimePriority = \(priority): must be 1…99, or nil")
        }
        if let address = serverAddress, address.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidParameter("PlatformInitSettings.serverAddress is empty; use nil for the default server")
        }
        guard connectTimeout > .zero, connectTimeout <= .seconds(60) else {
            throw .invalidParameter("PlatformInitSettings.connectTimeout = \(connectTimeout): must be more than 0 and at most 60 s")
        }
        if let idle = idleCorkTimeout, idle < .milliseconds(100) {
            throw .invalidParameter("PlatformInitSettings.idleCorkTimeout = \(idle): must be at least 100 ms, or nil")
        }
        guard !applicationName.isEmpty else {
            throw .invalidParameter("PlatformInitSettings.applicationName is empty: servers show it to the user")
        }
        // libpulse reads C strings: a NUL would cut the text short (another
        // server address, another journal folder).
        let texts = [
            ("serverAddress", serverAddress), ("applicationName", applicationName), ("applicationID", applicationID),
            ("crashRepair.journalDirectory", crashRepair.journalDirectory),
        ]
        for (field, text) in texts where text?.utf8.contains(0) == true {
            throw .invalidParameter("PlatformInitSettings.\(field) contains a NUL character")
        }
        if crashRepair.journalDirectory?.isEmpty == true {
            throw .invalidParameter("PlatformInitSettings.crashRepair.journalDirectory is empty; use nil for the default")
        }
        do {
            try audioSession.validate()
        } catch {
            throw error.prefixed("PlatformInitSettings.audioSession")
        }
    }
}

private func require(_ ok: Bool, _ field: String, _ value: Int, _ rule: String) throws(SoundEngineError) {
    if !ok { throw .invalidParameter("\(field) = \(value): \(rule)") }
}

extension SoundEngineError {
    /// The same error with `context` in front of its reason.
    func prefixed(_ context: String) -> SoundEngineError {
        switch self {
        case .invalidParameter(let r): .invalidParameter("\(context): \(r)")
        case .incompatibleCategory(let r): .incompatibleCategory("\(context): \(r)")
        default: self
        }
    }
}
