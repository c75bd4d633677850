import Foundation
import SoundBackend
import SoundCore

/// What this engine has changed on other applications' streams, written to
/// its journal before every change, and the guardian that gives it back if
/// the game dies holding it (docs/pulseaudio.md, "Nothing left behind").
///
/// One per backend, across connections. The server model records and
/// releases holds on the control loop thread; the backend repairs at every
/// connect and at close; `journal` may be read anywhere.
final class HoldBook: @unchecked Sendable {
    // @unchecked: every mutable field is inside `state`, a ControlLock.
    private struct State {
        var journal: HoldJournal
        var file: HoldJournalFile?
        var guardian: Guardian?
        /// Said once: the journal or the guardian cannot be made.
        var fileRefused = false
        var guardianRefused = false
    }

    private let state: ControlLock<State>
    private let directorySetting: String?
    private let guardianWanted: Bool
    private let applicationName: String
    private let warn: @Sendable (String) -> Void

    init(_ configuration: BackendConfiguration, warn: @escaping @Sendable (String) -> Void) {
        state = ControlLock(State(journal: HoldJournal(processID: getpid(), application: configuration.applicationName)))
        directorySetting = configuration.journalDirectory
        guardianWanted = configuration.guardianProcess
        applicationName = configuration.applicationName
        self.warn = warn
    }

    /// What is held now.
    var journal: HoldJournal { state.withLock { $0.journal } }

    /// The journal's file stem, `nil` before the first change (tests).
    var journalStem: String? { state.withLock { $0.file?.stem } }

    /// The guardian's process, `nil` when none runs (tests).
    var guardianProcess: pid_t? { state.withLock { $0.guardian?.pid } }

    /// The server the next changes are made on (after every connect, once
    /// what was held on the last one has been repaired).
    func connected(to server: ServerIdentity) {
        record { $0.server = server }
    }

    /// Changes the journal and writes it before returning, so what is about
    /// to be changed on the server is on disk first. The first hold creates
    /// the journal file and starts the guardian. `change` runs with the
    /// book locked: it must not read the book (decide first, then record).
    func record(_ change: (inout HoldJournal) -> Void) {
        state.withLock { s in
            let before = s.journal
            change(&s.journal)
            guard s.journal != before else { return }
            if s.file == nil && s.journal.isEmpty { return }  // nothing held yet: no file needed
            if s.file == nil { s.file = makeFile(&s) }
            guard let file = s.file else { return }
            do { try file.write(s.journal) } catch { warn("\(error)") }
            if !s.journal.isEmpty, s.guardian == nil, guardianWanted, !s.guardianRefused {
                switch Guardian.start(journal: file.stem) {
                case .success(let guardian): s.guardian = guardian
                case .failure(let error):
                    s.guardianRefused = true
                    warn("no guardian process: \(error)")
                }
            }
        }
    }

    private func makeFile(_ s: inout State) -> HoldJournalFile? {
        guard !s.fileRefused else { return nil }
        do {
            let directory = try HoldJournalFile.directory(directorySetting).get()
            return try HoldJournalFile.create(in: directory)
        } catch {
            s.fileRefused = true
            warn("no journal of the streams we change (a crash cannot be repaired): \(error)")
            return nil
        }
    }

    /// When a repair runs: at a connect, or at close.
    enum Moment {
        /// Before the server model looks at the server (`initialize`, every
        /// reconnect): what this engine held is given back, and what engines
        /// that died left in their journals.
        case connect
        /// At close, on the connection still open: what this engine held and
        /// every entry it touched.
        case close
    }

    /// Gives back what this engine still held (at a connect: its connection
    /// was lost or killed while it held streams), then, at a connect, what
    /// engines that died left in their journals. Journals of this server are
    /// repaired on `runner`'s connection, those of other servers on a short
    /// connection of their own (or left for later when that server does not
    /// answer). Loop lock held.
    ///
    /// At a connect the touched keys stay in the journal: the server may
    /// still hand out our change (a restarted server reads a saved state
    /// older than our give-back, and WirePlumber ignores a repair written
    /// before it is ready), so the server model keeps recognising it as ours
    /// on the streams it reaches (``ServerModel/echoSource(of:)``).
    func repair(
        using runner: RequestRunner, on server: PAServerInfo, deadline: ContinuousClock.Instant, at moment: Moment
    ) {
        let own = journal
        if !own.isEmpty {
            do {
                try HoldRepair.repair(own, using: runner, on: server, deadline: deadline)
                record {
                    $0.streams = []
                    if moment == .close { $0.touchedKeys = [] }
                }
            } catch {
                warn("could not give back what we held on \(own.server?.name ?? "the server"): \(error)")
            }
        }
        guard moment == .connect, let directory = try? HoldJournalFile.directory(directorySetting).get() else { return }
        for stem in HoldJournalFile.stems(in: directory, except: journalStem) {
            guard let orphan = HoldJournalFile.claim(stem) else { continue }  // its engine or guardian lives
            guard let journal = orphan.read(), !journal.isEmpty, let origin = journal.server else {
                orphan.remove()
                continue
            }
            do {
                if origin.cookie == server.cookie {
                    try HoldRepair.repair(journal, using: runner, on: server, deadline: deadline)
                } else {
                    let remaining = max(.milliseconds(100), ContinuousClock.now.duration(to: deadline) / 4)
                    try RepairConnection.run(address: origin.address, applicationName: applicationName, timeout: remaining) {
                        runner, info, deadline throws(SoundEngineError) in
                        try HoldRepair.repair(journal, using: runner, on: info, deadline: deadline)
                    }
                }
                orphan.remove()
            } catch {
                // Its server does not answer now: the journal stays for the next start.
                warn("a journal left by \(journal.application) (process \(journal.processID)) could not be repaired yet: \(error)")
            }
        }
    }

    /// At close: with nothing held the journal goes and the guardian is told
    /// to leave; what is still held (the server went away while we held it)
    /// is given back now if the server answers, else the journal stays for
    /// the next start.
    func close() {
        let (journal, file, guardian) = state.withLock { s in
            defer {
                s.file = nil
                s.guardian = nil
            }
            return (s.journal, s.file, s.guardian)
        }
        guardian?.finish()
        guard let file else { return }
        if journal.isEmpty {
            file.remove()
            return
        }
        guard let server = journal.server else { return file.remove() }
        do {
            try RepairConnection.run(address: server.address, applicationName: applicationName, timeout: .seconds(1)) {
                runner, info, deadline throws(SoundEngineError) in
                try HoldRepair.repair(journal, using: runner, on: info, deadline: deadline)
            }
            file.remove()
        } catch {
            warn("what we held could not be given back now (\(error)); the next initialize repairs it")
        }
    }
}
