public import CSoundEngineABI
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// Start, stop, suspend, the app's lifecycle: the static façade's calls
// (SoundEngine.initialize, …), reached from C.

@c @implementation
public func se_initialize(
    _ settings: UnsafePointer<SE_InitSettings>?, _ platform: UnsafePointer<SE_PlatformInitSettings>?
) -> SE_Result {
    report { () throws(SoundEngineError) in
        let s = try InitSettings(Argument.grown(settings, "settings", defaults: .defaults))
        let p = try PlatformInitSettings(Argument.sized(platform, "platform"))
        try SoundEngine.initialize(s, p)
        Handles.engineStarted()
    }
}

@c @implementation
public func se_terminate() {
    SoundEngine.terminate()
}

@c @implementation
public func se_is_initialized() -> Bool {
    SoundEngine.isInitialized
}

@c @implementation
public func se_suspend(_ render_anyway: Bool, _ fade_ms: Int32) -> SE_Result {
    report { () throws(SoundEngineError) in
        try SoundEngine.suspend(renderAnyway: render_anyway, fade: Argument.milliseconds(fade_ms, "fade_ms"))
    }
}

@c @implementation
public func se_wakeup_from_suspend() -> SE_Result {
    report { () throws(SoundEngineError) in try SoundEngine.wakeupFromSuspend() }
}

@c @implementation
public func se_application_did_enter_background() -> SE_Result {
    report { () throws(SoundEngineError) in try SoundEngine.setApplicationState(.background) }
}

@c @implementation
public func se_application_will_enter_foreground() -> SE_Result {
    report { () throws(SoundEngineError) in try SoundEngine.setApplicationState(.foreground) }
}

@c @implementation
public func se_get_application_state(_ state: UnsafeMutablePointer<SE_ApplicationState>?) -> SE_Result {
    report { () throws(SoundEngineError) in
        let out = try Argument.required(state, "state")
        let value =
            switch try SoundEngine.applicationState {
            case .foreground: SE_ApplicationStateForeground
            case .background: SE_ApplicationStateBackground
            }
        out.pointee = SE_ApplicationState(value)
    }
}
