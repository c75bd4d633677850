extension AudioSessionPolicy {
    /// Another client's stream appeared or changed.
    ///
    /// While the session silences others (non-mixable and active):
    /// - a stream we muted that shows up unmuted after our mute was confirmed
    ///   was unmuted by someone else: the mute is no longer ours;
    /// - a stream we muted that starts playing again (the user pressed play)
    ///   wins: we give its sound back and the session is interrupted;
    /// - a music or video stream that becomes audible by itself wins.
    mutating func streamChanged(_ stream: OtherStream, _ pass: inout HandlingPass) {
        let previous = others[stream.id]
        others[stream.id] = stream
        let silencing = applied.holdsOthersSilent
        if mutedStreams.contains(stream.id) {
            if stream.isMuted {
                unconfirmedMutes.remove(stream.id)
            } else if !unconfirmedMutes.contains(stream.id) {
                mutedStreams.remove(stream.id)
            }
            let restarted = stream.isRunning && previous?.isRunning == false
            if silencing && stream.isMedia && restarted && mutedStreams.contains(stream.id) {
                mutedStreams.remove(stream.id)
                unconfirmedMutes.remove(stream.id)
                pass.unmute.insert(stream.id)
                winningMedia.insert(stream.id)
            }
        }
        // A restore database's echo of our own mute: module-stream-restore
        // and WirePlumber remember the mute per media role and put it on the
        // next stream of that role (PulseAudio before the first report,
        // WirePlumber a moment after it, before the stream plays). Media that
        // arrives muted, or is muted before it ever played, while we hold a
        // confirmed mute on another stream of its role was muted by us, not by
        // the user: the mute is ours. Playing, it started later, so it wins
        // and its sound goes back at once; paused, it is given back when we
        // let go (or wins when it starts).
        if previous == nil && !stream.isRunning { unplayedStreams.insert(stream.id) }
        let newlyArrived = previous?.role == nil || (unplayedStreams.contains(stream.id) && previous?.isMuted == false)
        if silencing && stream.isMedia && newlyArrived && stream.isMuted && !mutedStreams.contains(stream.id)
            && holdsConfirmedMute(onRole: stream.role)
        {
            if stream.isRunning {
                pass.unmute.insert(stream.id)
                winningMedia.insert(stream.id)
            } else {
                mutedStreams.insert(stream.id)
            }
        }
        // Audible media now, and not before: it started, or its role arrived
        // only in a later report.
        let wasAudibleMedia = previous.map { $0.isAudible && $0.isMedia } ?? false
        let becameAudibleMedia = stream.isAudible && stream.isMedia && !wasAudibleMedia
        if silencing && becameAudibleMedia && !mutedStreams.contains(stream.id) {
            winningMedia.insert(stream.id)
        }
        if stream.isRunning { unplayedStreams.remove(stream.id) }
        // Media that won interrupts us until it stops playing or goes away.
        // Paused while a call plays, it was paused for the call (role-cork
        // asked it to cork): it still wins, else the call's end would end our
        // interruption and the music resuming a moment later, when role-cork
        // asks it to uncork, would begin it again.
        if !stream.isMedia {
            winningMedia.remove(stream.id)
            winningMediaPausedForCall.remove(stream.id)
        } else if stream.isRunning {
            winningMediaPausedForCall.remove(stream.id)
        } else if winningMedia.contains(stream.id) {
            if isCallPlaying {
                winningMediaPausedForCall.insert(stream.id)
            } else if !winningMediaPausedForCall.contains(stream.id) {
                winningMedia.remove(stream.id)
            }
        }
        if !stream.isRunning || !stream.isCall { acceptedCalls.remove(stream.id) }
    }

    /// Whether a stream of this role is muted by us and the server has
    /// confirmed it (so the server's restore database now holds our mute).
    private func holdsConfirmedMute(onRole role: MediaRole?) -> Bool {
        guard let role else { return false }
        return mutedStreams.contains { id in
            !unconfirmedMutes.contains(id) && others[id]?.role == role && others[id]?.isMuted == true
        }
    }

    /// Another client's stream went away: forget everything about it.
    mutating func streamRemoved(_ id: StreamID) {
        others[id] = nil
        mutedStreams.remove(id)
        unconfirmedMutes.remove(id)
        winningMedia.remove(id)
        winningMediaPausedForCall.remove(id)
        acceptedCalls.remove(id)
        unplayedStreams.remove(id)
    }

    /// The interruption source in force now, if any, in priority order.
    var currentInterruptionSource: InterruptionSource? {
        guard isConnected && isActive else { return nil }
        if corkRequests > 0 && !overridesServerCork { return .serverCorkRequest }
        if others.values.contains(where: { $0.isCall && $0.isRunning && !acceptedCalls.contains($0.id) }) {
            return .phoneCall
        }
        if !winningMedia.isEmpty { return .otherMedia }
        if isMicrophoneMuteInterrupting { return .microphoneMuted }
        return nil
    }

    /// Whether a muted input interrupts the session (iOS's builtInMicMuted):
    /// the category records, the option that overrides it is not set, and the
    /// input the route uses is muted. The input is the one without the speaker
    /// override, which the interruption would clear anyway: otherwise the
    /// interruption could end the moment it began.
    private var isMicrophoneMuteInterrupting: Bool {
        guard !mutedInputs.isEmpty, configurationInEffect.category.hasInput,
            !configurationInEffect.effectiveOptions.contains(.overrideMutedMicrophoneInterruption)
        else { return false }
        var unoverridden = self
        unoverridden.routedOverride = .none
        guard let input = unoverridden.plannedRoute().input else { return false }
        return mutedInputs.contains(input.id)
    }

    /// Whether another client's call stream plays: `module-role-cork` corks
    /// us only while one does.
    var isCallPlaying: Bool { others.values.contains { $0.isCall && $0.isRunning } }

    /// Whether other apps' music, video or calls play audibly now; a stream
    /// we muted counts as silent before the server confirms it. Media that
    /// won and paused for a call counts as playing: it is paused only
    /// while role-cork holds it, and at the call's end the phone stream goes
    /// a moment before the music resumes (not a false then a true).
    var otherAudioIsPlaying: Bool {
        others.values.contains { ($0.isMedia || $0.isCall) && $0.isAudible && !mutedStreams.contains($0.id) }
            || !winningMediaPausedForCall.isEmpty
    }

    /// The streams to mute when the session starts silencing others: every
    /// audible music or video stream it does not already own.
    var streamsToSilence: [StreamID] {
        others.values.filter { $0.isMedia && $0.isAudible && !mutedStreams.contains($0.id) }.map(\.id).sorted()
    }

    /// The streams duckOthers lowers now: every music or video stream while
    /// the session is active, ducking, not interrupted and not stopped in the background.
    var streamsToDuck: Set<StreamID> {
        guard isConnected && isActive && configurationInEffect.ducksOthers && !isInterrupted && !isStoppedInBackground else {
            return []
        }
        return Set(others.values.filter(\.isMedia).map(\.id))
    }
}
