import Foundation
import Glibc
import SoundCore

/// The server a journal's changes were made on.
struct ServerIdentity: Sendable, Hashable, Codable {
    /// The address the engine connected to as it was configured (`nil`:
    /// libpulse's default, `PULSE_SERVER` or the per-user socket).
    var address: String?
    /// `pa_server_info.cookie`: this instance of the server. Another instance
    /// (a restarted server) has none of the streams.
    var cookie: UInt32
    var name: String
    /// pipewire-pulse: its restore database (WirePlumber's) cannot be read back.
    var isPipeWire: Bool
}

/// What an engine has changed on other applications' streams, written down
/// before each change (docs/pulseaudio.md, "Nothing left behind"). A guardian
/// process, the engine's next `initialize` or its reconnect reads it and
/// gives everything back.
struct HoldJournal: Sendable, Hashable, Codable {
    var version = 1
    /// The game's process.
    var processID: Int32
    var application: String
    /// `nil` until the first change, which is made on a connected server.
    var server: ServerIdentity?
    /// Streams we hold muted or ducked.
    var streams: [HeldStream] = []
    /// Every restore-database entry our changes may have written this
    /// session, with what it holds without them (kept current from the
    /// streams of that key we do not hold). Repaired after the server
    /// restarts (a restarted server reads a saved state that can be older
    /// than our last repair: WirePlumber writes its state a second after the
    /// last change, PulseAudio ten), at close, and after a crash.
    var touchedKeys: [KeyRepair] = []

    /// Whether anything is left to give back.
    var isEmpty: Bool { streams.isEmpty && touchedKeys.isEmpty }

    /// Records that our changes may write `repair.key`'s entry: its clean
    /// values stay those first known; the fingerprints add up.
    mutating func touch(_ repair: KeyRepair) {
        guard let n = touchedKeys.firstIndex(where: { $0.key == repair.key }) else {
            touchedKeys.append(repair)
            return
        }
        touchedKeys[n].mutedByUs = touchedKeys[n].mutedByUs || repair.mutedByUs
        if let ducked = repair.duckedTo { touchedKeys[n].duckedTo = ducked }
    }
}

/// A journal's files: `<stem>.lock`, held with an exclusive `flock` by the
/// engine that writes it (the kernel drops the lock when the process dies,
/// however it dies), and `<stem>.json`, replaced whole with a rename so a
/// reader never sees half a journal.
///
/// Whoever takes the lock of a journal whose engine is gone (the guardian,
/// another engine's `initialize`) repairs it and removes both files, still
/// holding the lock; a second repairer that gets the lock later finds the
/// file unlinked and leaves it.
final class HoldJournalFile {
    let stem: String
    private var lockFD: Int32

    private init(stem: String, lockFD: Int32) {
        self.stem = stem
        self.lockFD = lockFD
    }

    deinit { if lockFD >= 0 { close(lockFD) } }

    var lockPath: String { stem + ".lock" }
    var dataPath: String { stem + ".json" }

    /// The directory journals live in: `directory`, else
    /// `$XDG_RUNTIME_DIR/soundengine`, else `/tmp/soundengine-<uid>`; created
    /// mode 0700 if missing. Refused (`nil`, with the reason) when it is not a
    /// directory of ours that only we can write: another user must not be able
    /// to plant a journal we would act on.
    static func directory(_ directory: String?) -> Result<String, SoundEngineError> {
        let path: String
        if let directory {
            path = directory
        } else if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            path = runtime + "/soundengine"
        } else {
            path = "/tmp/soundengine-\(getuid())"
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            return .failure(.fail("cannot create the journal folder \(path): \(String(cString: strerror(errno)))"))
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return .failure(.fail("the journal folder \(path) is not a directory"))
        }
        guard info.st_uid == getuid(), info.st_mode & 0o022 == 0 else {
            return .failure(.fail("the journal folder \(path) is not ours alone (owner \(info.st_uid), mode \(String(info.st_mode & 0o777, radix: 8)))"))
        }
        return .success(path)
    }

    /// Creates a new journal's lock file, locked, in `directory`. It appears
    /// under its name already locked (made as `.new`, locked, then renamed),
    /// so no scanner can take it for an orphan.
    static func create(in directory: String) throws(SoundEngineError) -> HoldJournalFile {
        let stem = "\(directory)/engine-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fresh = stem + ".lock.new"
        let fd = open(fresh, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fail("cannot create the journal \(fresh): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(fresh, stem + ".lock") == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            unlink(fresh)
            throw .fail("cannot lock the journal \(stem).lock: \(why)")
        }
        return HoldJournalFile(stem: stem, lockFD: fd)
    }

    /// Takes the lock of an existing journal if nobody holds it (its engine
    /// and guardian are gone, or the guardian is done), `nil` otherwise or
    /// when it has been removed meanwhile.
    static func claim(_ stem: String) -> HoldJournalFile? {
        let fd = open(stem + ".lock", O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &info) == 0, info.st_nlink > 0, info.st_uid == getuid() else {
            close(fd)
            return nil
        }
        return HoldJournalFile(stem: stem, lockFD: fd)
    }

    /// The stems of every journal in `directory` (locked or not), but `except`.
    static func stems(in directory: String, except: String? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("engine-") && $0.hasSuffix(".lock") }
            .map { directory + "/" + $0.dropLast(".lock".count) }
            .filter { $0 != except }
            .sorted()
    }

    /// Writes `journal` whole (to a temporary file, renamed over the last).
    func write(_ journal: HoldJournal) throws(SoundEngineError) {
        let data: Data
        do { data = try JSONEncoder().encode(journal) } catch {
            throw .fail("cannot encode the journal: \(error)")
        }
        let temporary = dataPath + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fail("cannot write the journal \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { bytes in Glibc.write(fd, bytes.baseAddress, bytes.count) }
        close(fd)
        guard written == data.count, rename(temporary, dataPath) == 0 else {
            unlink(temporary)
            throw .fail("cannot write the journal \(dataPath): \(String(cString: strerror(errno)))")
        }
    }

    /// The journal as last written, `nil` when there is none (an engine that
    /// never changed anything) or it cannot be read.
    func read() -> HoldJournal? {
        guard let data = FileManager.default.contents(atPath: dataPath) else { return nil }
        return try? JSONDecoder().decode(HoldJournal.self, from: data)
    }

    /// Removes both files (the lock last, still held) and releases the lock.
    func remove() {
        unlink(dataPath)
        unlink(dataPath + ".tmp")
        unlink(lockPath)
        if lockFD >= 0 { close(lockFD) }
        lockFD = -1
    }
}
