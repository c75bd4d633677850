import CGuardianHook
import Foundation
import Glibc
import SoundCore

/// The guardian process of one engine (docs/pulseaudio.md, "Nothing left
/// behind"): started with the engine's first change to another
/// application's stream, it sleeps until the game's process ends. If the
/// game gave everything back, its journal is gone and the guardian just
/// exits; if the game crashed or was killed, the guardian repairs what the
/// journal lists within a few milliseconds of the death.
///
/// It is the game's own executable run again (`/proc/self/exe`): a
/// constructor linked with this library (CGuardianHook) takes the process
/// over before the game's `main`, so a game ships nothing extra. It runs in a
/// session of its own (a Ctrl-C or a hang-up aimed at the game's terminal
/// does not reach it), with no descriptor of the game's but its end of a
/// pipe, whose end-of-file (or the game's pidfd) says the game is gone.
final class Guardian {
    /// The guardian's process.
    let pid: pid_t
    /// Our end of the pipe (close-on-exec: no other child of the game holds it).
    private var pipeEnd: Int32

    private init(pid: pid_t, pipeEnd: Int32) {
        self.pid = pid
        self.pipeEnd = pipeEnd
    }

    deinit { finish() }

    /// The environment variables the guardian reads (and removes).
    enum Environment {
        /// The journal's stem (its files are `<stem>.lock` and `<stem>.json`).
        static let journal = "SOUNDENGINE_GUARDIAN"
        /// The game's process ID.
        static let gamePID = "SOUNDENGINE_GUARDIAN_PID"
        /// The descriptor of the guardian's end of the pipe.
        static let pipeFD: Int32 = 3
    }

    /// Starts the guardian of the journal `stem`.
    static func start(journal stem: String) -> Result<Guardian, SoundEngineError> {
        // Linked into the game's executable, the hook is there when it runs
        // again; in a shared library (the C API's libsoundengine.so, linked
        // or dlopen'ed), that run preloads the library so it is there too.
        var preload: String? = nil
        if se_guardian_hook_in_main_executable() == 0 {
            guard let path = se_guardian_hook_library_path() else {
                return .failure(.fail(
                    "cannot find the file of the shared library SoundEngine is in, so the guardian cannot be started; "
                        + "a crash is repaired at the next initialize instead"))
            }
            preload = String(cString: path)
        }
        var fds: [Int32] = [-1, -1]
        guard se_guardian_pipe(&fds) == 0 else {
            return .failure(.fail("cannot make the guardian's pipe: \(String(cString: strerror(errno)))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The read end becomes descriptor 3 in the child (dup2 clears close-on-exec).
        posix_spawn_file_actions_adddup2(&actions, fds[0], Environment.pipeFD)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own session; no signal blocked (test runners block SIGTERM, and
        // a blocked mask is inherited); the usual signals at their defaults.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let flags = Int32(se_guardian_setsid_flag()) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var environment = ProcessInfo.processInfo.environment
        environment[Environment.journal] = stem
        environment[Environment.gamePID] = String(getpid())
        if let preload { environment["LD_PRELOAD"] = preload }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv = [strdup("soundengine-guardian"), nil]
        defer {
            for p in envp { free(p) }
            for p in argv { free(p) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, envp)
        close(fds[0])
        guard result == 0 else {
            close(fds[1])
            return .failure(.fail("cannot start the guardian process: \(String(cString: strerror(result)))"))
        }
        return .success(Guardian(pid: pid, pipeEnd: fds[1]))
    }

    /// The game gave everything back: tells the guardian to leave without
    /// repairing, and reaps it (at most 200 ms, then it is killed). Idempotent.
    func finish() {
        guard pipeEnd >= 0 else { return }
        var quit: UInt8 = UInt8(ascii: "q")
        _ = Glibc.write(pipeEnd, &quit, 1)
        close(pipeEnd)
        pipeEnd = -1
        let deadline = ContinuousClock.now + .milliseconds(200)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }
}
