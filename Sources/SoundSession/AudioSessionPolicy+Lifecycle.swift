extension AudioSessionPolicy {
    /// Applies an app or game fact.
    mutating func apply(_ event: LifecycleEvent, _ pass: inout HandlingPass) {
        switch event {
        case .appEnteredBackground:
            guard isInForeground else { return }
            isInForeground = false
            // Calls we were mixing with take the audio back (seed 002, scenario 2).
            acceptedCalls = []
        case .appEnteredForeground:
            guard !isInForeground else { return }
            isInForeground = true
            // An interruption whose ended never came: a cork request is
            // stale when no call that could hold it plays any more. While a
            // call plays, the foreground takes the audio back from it anyway
            // (takeOver accepts the call, and its cork is not obeyed).
            if !isCallPlaying { corkRequests = 0 }
            if isActive && isConnected { takeOver(&pass) }
        case .gameSuspended(let renderAnyway):
            gameSuspension = renderAnyway
        case .gameWokeUp:
            gameSuspension = nil
        }
    }
}
