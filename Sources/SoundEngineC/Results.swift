import CSoundEngineABI
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

// The C API's only way out of Swift. Every `se_` function that returns an
// SE_Result runs its body through `report`: a thrown SoundEngineError becomes
// its Wwise AKRESULT value (SoundEngineError.akResult, the mapping the Swift
// API documents) and its words become the thread's se_last_error_message. No
// Swift error crosses into C, and nothing in a body may trap: arguments are
// checked (Arguments.swift) before they are converted.

/// Runs `body`; returns SE_Success, or the error's code after recording its
/// reason (and AVAudioSession code) as this thread's last error.
@inline(__always)
func report(_ body: () throws(SoundEngineError) -> Void) -> SE_Result {
    do {
        try body()
        se_shim_clear_error()
        return SE_Result(SE_Success)
    } catch {
        se_shim_set_error(error.sessionErrorCode ?? 0, error.reason)
        return error.akResult
    }
}

extension SoundEngineError {
    /// In the C API a handle that names nothing live is a bad argument
    /// (SE_InvalidParameter), while an unknown *name* stays SE_IDNotFound.
    /// This turns an `idNotFound` whose reason is about the handle (`isAbout`,
    /// by default every one: for calls that take no names) into
    /// `invalidParameter` with the same words.
    func staleHandle(when isAbout: (String) -> Bool = { _ in true }) -> SoundEngineError {
        if case .idNotFound(let reason) = self, isAbout(reason) { return .invalidParameter(reason) }
        return self
    }
}

/// Runs a façade call whose `idNotFound` can only be about the handles it
/// was given, reporting those as stale (``SoundEngineError/staleHandle(when:)``).
@inline(__always)
func withHandles<T>(_ body: () throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
    do { return try body() } catch { throw error.staleHandle() }
}

/// Runs a façade call that takes names and a game object: only an
/// `idNotFound` about the game object is reported as a stale handle.
@inline(__always)
func withGameObject<T>(_ object: GameObjectID?, _ body: () throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
    do { return try body() } catch {
        guard let object else { throw error }
        throw error.staleHandle { $0.hasPrefix(object.description) }
    }
}
