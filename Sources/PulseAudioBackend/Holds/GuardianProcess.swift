import CGuardianHook
import Foundation
import Glibc
import SoundCore

/// The guardian's `main`, reached from the C constructor in CGuardianHook
/// when the game's executable runs again as the guardian (see ``Guardian``).
/// Never returns to the game's code: the constructor exits with this status.
@_cdecl("soundengine_guardian_main")
public func soundengineGuardianMain() -> Int32 {
    GuardianProcess.run()
}

/// What the guardian does: wait for the game to end; if it ended without
/// giving everything back, give it back.
enum GuardianProcess {
    /// How long the guardian keeps trying to reach a server that went away
    /// with the game (a restart): after that the journal stays for the next start.
    static let patience: Duration = .seconds(10)

    static func run() -> Int32 {
        guard let stem = take(Guardian.Environment.journal), let gamePID = take(Guardian.Environment.gamePID).flatMap(pid_t.init)
        else { return 2 }
        // No descriptor of the game's but the pipe (a socket or file of the
        // game kept open here would outlive the game).
        se_guardian_close_from(Guardian.Environment.pipeFD + 1)
        for sig in [SIGINT, SIGHUP, SIGPIPE, SIGQUIT] { signal(sig, SIG_IGN) }
        guard waitForTheGame(gamePID) else { return 0 }  // it said goodbye: nothing held
        return repair(stem) ? 0 : 1
    }

    /// Reads and removes an environment variable (the guardian's children,
    /// if any, must not think they are guardians).
    private static func take(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        unsetenv(name)
        return string
    }

    /// Sleeps until the game's process ends (its pidfd turns readable, or the
    /// pipe reaches end-of-file because its end closed with the process).
    /// Returns false when the game said goodbye instead (it wrote `q`: it
    /// gave everything back itself).
    private static func waitForTheGame(_ pid: pid_t) -> Bool {
        let pidfd = se_guardian_pidfd_open(pid)
        if pidfd < 0 && errno == ESRCH { return true }  // already gone
        var fds = [pollfd(fd: Guardian.Environment.pipeFD, events: Int16(POLLIN), revents: 0)]
        if pidfd >= 0 { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return kill(pid, 0) != 0  // cannot wait: judge by whether it lives
            }
            if fds.count > 1, fds[1].revents != 0 { return true }
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                let n = read(Guardian.Environment.pipeFD, &byte, 1)
                if n == 1 && byte == UInt8(ascii: "q") { return false }
                if n <= 0 { return true }  // end of file: the game's end closed
            }
        }
    }

    /// Takes the journal over and gives back what it holds. Returns whether
    /// nothing is left to do.
    private static func repair(_ stem: String) -> Bool {
        let end = ContinuousClock.now + patience
        // The game's lock goes with its process; another engine starting now
        // may be repairing it already (then its files go away).
        var claimed = HoldJournalFile.claim(stem)
        while claimed == nil {
            if access(stem + ".lock", F_OK) != 0 || ContinuousClock.now >= end { return true }
            pause(.milliseconds(10))
            claimed = HoldJournalFile.claim(stem)
        }
        guard let file = claimed else { return true }
        guard let journal = file.read(), !journal.isEmpty, let server = journal.server else {
            file.remove()
            return true
        }
        var lastError: SoundEngineError?
        while ContinuousClock.now < end {
            do {
                try RepairConnection.run(
                    address: server.address, applicationName: "\(journal.application) (SoundEngine guardian)",
                    timeout: .seconds(1)
                ) { runner, info, deadline throws(SoundEngineError) in
                    try HoldRepair.repair(journal, using: runner, on: info, deadline: deadline)
                }
                file.remove()
                return true
            } catch {
                lastError = error
                pause(.milliseconds(250))
            }
        }
        // The journal stays (the lock is released as the process ends) for
        // the game's next start.
        FileHandle.standardError.write(Data(
            "soundengine-guardian: could not give back what \(journal.application) held: \(lastError.map { "\($0)" } ?? "")\n".utf8))
        return false
    }

    private static func pause(_ duration: Duration) {
        let (s, atto) = duration.components
        var ts = timespec(tv_sec: Int(s), tv_nsec: Int(atto / 1_000_000_000))
        nanosleep(&ts, nil)
    }
}
