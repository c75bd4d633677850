import SoundSession
import CAllocationCounter
import Foundation
import PulseAudioBackend
import SoundBackend
import SoundCore
import SoundServerSupport
import Testing

/// Events a backend reported, collected for assertions.
final class EventLog: @unchecked Sendable {
    // @unchecked: `events` is only touched under `lock`.
    private let lock = NSLock()
    private var events: [BackendEvent] = []
    private var threads: Set<String> = []
    var handler: BackendEventHandler {
        { [self] e in
            let thread = currentThreadName()
            lock.withLock {
                events.append(e)
                threads.insert(thread)
            }
        }
    }
    var all: [BackendEvent] { lock.withLock { events } }
    /// The names of the threads events arrived on.
    var threadNames: Set<String> { lock.withLock { threads } }
}

/// The calling thread's name as the kernel keeps it (15 bytes).
func currentThreadName() -> String {
    guard let file = fopen("/proc/thread-self/comm", "r") else { return "?" }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 32)
    guard fgets(&buffer, 32, file) != nil else { return "?" }
    return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func configuration(_ server: PrivateSoundServer, role: MediaRole = .game) -> BackendConfiguration {
    BackendConfiguration(
        serverAddress: server.address, applicationName: "SoundEngine backend test",
        applicationID: "org.soundengine.tests", streamName: "test tone",
        streamProperties: StreamProperties(mediaRole: role, echoCancellation: false))
}

extension PulseAudioBackend {
    /// Connects and creates the playback stream, corked, as the engine's
    /// first session action does; returns what the server granted.
    @discardableResult
    func openStream(
        _ configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler
    ) throws -> GrantedStream {
        _ = try open(configuration, render: render, events: events)
        try perform(.setStreamProperties(configuration.streamProperties))
        return try #require(grantedStream)
    }
}

@Suite struct PulseAudioBackendTests {
    @Test func serverListsOurStreamWithApplicationNameAndRole() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(configuration(server, role: .music), render: tone.entry, events: { _ in })
        defer { backend.close() }
        #expect(granted.serverName == (server.kind == .pipewire ? "PulseAudio (on PipeWire 0.3.65)" : "pulseaudio")
            || (server.kind == .pipewire && granted.isPipeWire))
        #expect(granted.format == StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32))
        #expect(granted.deviceName == "speaker")
        let ours = try server.sinkInputs().filter { $0.properties["application.name"] == "SoundEngine backend test" }
        #expect(ours.count == 1)
        #expect(ours.first?.properties["media.role"] == "music")
        #expect(ours.first?.properties["media.name"] == "test tone")
        // WirePlumber 0.5 neither remembers a target for our stream under
        // its role (the music apps' key) nor restores one to it.
        #expect(ours.first?.properties["state.restore-target"] == "false", "\(ours.first?.properties ?? [:])")
        #expect(ours.first?.index == backend.streamIndex.map(Int.init))
        // Both of our contexts (playback and control) asked for no shared
        // memory: PulseAudio 16 can abort on a disconnecting client's
        // imported blocks (docs/pulseaudio.md, "No shared memory").
        let clients = try server.clients().filter { $0.properties["application.name"] == "SoundEngine backend test" }
        #expect(clients.count == 2)
        #expect(clients.allSatisfy { $0.properties["context.force.disable.shm"] == "yes" },
                "\(clients.map(\.properties))")
    }

    @Test func grantedBufferIsAboutTwentyMilliseconds() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(configuration(server), render: tone.entry, events: { _ in })
        defer { backend.close() }
        // ADJUST_LATENCY: the server splits our 1024-frame target between its
        // sink latency and the stream buffer. Issue 2 asks for at most 20 ms
        // of buffered audio in our stream: 960 frames at 48 kHz. Both
        // PulseAudio 16 and pipewire-pulse grant 768 (16 ms).
        #expect(granted.buffer.targetLength <= 960, "granted tlength \(granted.buffer.targetLength) frames")
        #expect(granted.buffer.targetLength >= 512, "a buffer this small would underflow: \(granted.buffer.targetLength)")
        #expect(granted.buffer.minimumRequest <= 256)
        #expect(granted.buffer.targetLength >= granted.buffer.minimumRequest)
    }

    @Test func toneReachesTheSinkAtItsLevelAndPauseIsSilence() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let amplitude: Float = 0.5
        let tone = ToneGenerator(frequency: 1000, amplitude: amplitude, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        _ = try backend.openStream(configuration(server), render: tone.entry, events: { _ in })
        defer { backend.close() }
        let recorder = try server.record()
        defer { recorder.stop() }
        try backend.setPaused(false)
        #expect(backend.isCorked == false)
        let expected = amplitude / Float(2).squareRoot()  // RMS of a sine
        let playing = recorder.waitForLevel(windows: 4) { rms in rms.allSatisfy { abs($0 - expected) < expected * 0.05 } }
        #expect(playing.met, "monitor RMS \(playing.rms), expected \(expected) per channel")
        try backend.setPaused(true)
        #expect(backend.isCorked == true)
        try recorder.discardBacklog()
        let silent = recorder.waitForLevel(windows: 4) { rms in rms.allSatisfy { $0 < 1e-4 } }
        #expect(silent.met, "monitor RMS \(silent.rms) after pause, expected silence")
        #expect(backend.statistics.framesRendered > 0)
    }

    @Test func int16StreamsCarryTheSameLevel() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        var config = configuration(server)
        config.format.sampleFormat = .int16
        let tone = ToneGenerator(frequency: 500, amplitude: 0.25, format: config.format)
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(config, render: tone.entry, events: { _ in })
        defer { backend.close() }
        #expect(granted.format.sampleFormat == .int16)
        let recorder = try server.record()
        defer { recorder.stop() }
        try backend.setPaused(false)
        let expected: Float = 0.25 / Float(2).squareRoot()
        let level = recorder.waitForLevel(windows: 4) { rms in rms.allSatisfy { abs($0 - expected) < expected * 0.05 } }
        #expect(level.met, "monitor RMS \(level.rms), expected \(expected)")
    }

    @Test func unreachableServerIsDeviceNotReadyNamingTheAddressWithinThreeSeconds() throws {
        let backend = PulseAudioBackend()
        let address = "unix:/nonexistent/soundengine-test/native"
        let started = ContinuousClock.now
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        #expect {
            _ = try backend.open(
                BackendConfiguration(serverAddress: address, applicationName: "unreachable"),
                render: tone.entry, events: { _ in })
        } throws: { error in
            guard case SoundEngineError.deviceNotReady(let why) = error else { return false }
            return why.contains(address)
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(backend.statistics.renderCalls == 0)
        #expect(backend.streamIndex == nil)
    }

    @Test func silentServerTimesOutInsteadOfHanging() throws {
        // A TCP listener that accepts and never speaks: libpulse would wait forever.
        let listener = try SilentListener()
        defer { listener.close() }
        let backend = PulseAudioBackend()
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let started = ContinuousClock.now
        var config = BackendConfiguration(serverAddress: "tcp:127.0.0.1:\(listener.port)", applicationName: "silent")
        config.connectTimeout = .milliseconds(500)
        #expect(throws: SoundEngineError.self) {
            _ = try backend.open(config, render: tone.entry, events: { _ in })
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(500) && elapsed < .seconds(3))
    }

    @Test func realtimePriorityIsAppliedToTheRenderThreadWhenPermitted() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        var config = configuration(server)
        config.realtimePriority = 3
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(config, render: tone.entry, events: { _ in })
        defer { backend.close() }
        // The kernel's view of our threads, from /proc/self/task/N/stat:
        // rt_priority is field 40, policy field 41 (2 = SCHED_RR).
        let schedules = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            tid -> (priority: Int, policy: Int)? in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)
            guard comm?.hasPrefix("SoundEngine-pul") == true,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // The first two fields precede ")": field n is fields[n - 3].
            guard let priority = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
            return (priority, policy)
        }
        #expect(!schedules.isEmpty, "no SoundEngine-pulse thread found")
        // What this process may do, asked the way the backend asks, not
        // guessed from the user id: root in a container may lack
        // CAP_SYS_NICE, and RLIMIT_RTPRIO lets users without privilege in.
        if realtimePriorityIsPermitted(3) {
            #expect(granted.realtimePriority == 3)
            #expect(schedules.contains { $0.policy == Int(SCHED_RR) && $0.priority == 3 }, "\(schedules)")
        } else {
            // Refused quietly, reported as nil; the thread stays as it was.
            #expect(granted.realtimePriority == nil)
            #expect(!schedules.contains { $0.policy == Int(SCHED_RR) }, "\(schedules)")
        }
    }

    @Test func latencyIsReportedOnceRunning() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        #expect(backend.outputLatency == nil)
        _ = try backend.openStream(configuration(server), render: tone.entry, events: { _ in })
        defer { backend.close() }
        try backend.setPaused(false)
        #expect(eventually { (backend.statistics.framesRendered) > 9600 })
        // The first readings follow the server's first timing updates: on a
        // loaded machine pipewire-pulse reported under 2 ms once (CI), so
        // the reading must settle in range within the deadline.
        var latency = try #require(backend.outputLatency)
        _ = eventually {
            latency = backend.outputLatency ?? .zero
            return latency > .milliseconds(2) && latency < .milliseconds(60)
        }
        #expect(latency > .milliseconds(2) && latency < .milliseconds(60), "\(latency)")
    }

    @Test func openTwiceIsAlreadyInitialized() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        _ = try backend.openStream(configuration(server), render: tone.entry, events: { _ in })
        defer { backend.close() }
        #expect(throws: SoundEngineError.alreadyInitialized) {
            _ = try backend.open(configuration(server), render: tone.entry, events: { _ in })
        }
        #expect(try server.sinkInputs().count == 1)
    }

    @Test(.disabled(if: se_alloc_counter_compiled_out() == 1, "a sanitizer build: its runtime owns malloc"))
    func renderCallbackAllocatesNothing() throws {
        let slot: Int32 = 1  // this test's counter slot (each allocation test has its own)
        #expect(se_alloc_counter_self_test(slot) == 1, "the malloc interposer is not active: a zero would prove nothing")
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        // Counted around the whole write callback as libpulse's mainloop calls
        // it: begin_write, the render entry, pa_stream_write and the
        // backend's own bookkeeping (see WriteCallbackCounter).
        func counts() -> (allocations: UInt64, frees: UInt64, callbacks: UInt64) {
            (se_alloc_counter_allocations(slot), se_alloc_counter_frees(slot), se_alloc_counter_armings(slot))
        }
        let counter = WriteCallbackCounter(slot: slot)
        let start = counts()
        _ = try counter.installing { try backend.openStream(configuration(server), render: tone.entry, events: { _ in }) }
        defer {
            backend.close()
            counter.finish()
        }
        #expect(counter.replacedCallbacks == 1, "the backend's write callback was not replaced by the counting one")
        // Counted from before the open (libpulse asks for audio as soon as
        // the stream exists), then playing, with pauses: what an uncork or a
        // cork (and its flush) changes in libpulse's state must not make the
        // next callbacks allocate either.
        for cycle in 0..<3 {
            let callbacks = counts().callbacks
            try backend.setPaused(false)
            #expect(eventually(within: 10) { counts().callbacks >= callbacks + 100 }, "cycle \(cycle): the stream stopped asking")
            try backend.setPaused(true)
        }
        let played = counts()
        let callbacks = played.callbacks - start.callbacks
        #expect(callbacks >= 300)
        #expect(played.allocations == start.allocations, "allocations in \(callbacks) write callbacks")
        #expect(played.frees == start.frees, "frees in \(callbacks) write callbacks")
    }

    @Test(.enabled(if: PrivateSoundServer.kindUnderTest == .pulseaudio, "pipewire-pulse sends no cork requests"))
    func corkRequestFromAPhoneStreamReachesUs() throws {
        try expectCorkRequestsReach(PulseAudioBackend())
    }

    /// Server facts (a device plugged in) come from the server model, which
    /// lives on the control context's loop, never on the loop that renders.
    @Test func serverEventsArriveOnTheControlThreadNotTheRenderThread() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let log = EventLog()
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        _ = try backend.openStream(configuration(server), render: tone.entry, events: log.handler)
        defer { backend.close() }
        try backend.setPaused(false)
        _ = try server.addOutput(
            name: "usb_headset", properties: ["device.description": "USB headset", "device.bus": "usb"])
        let added = eventually {
            log.all.contains { if case .system(.endpointsChanged) = $0 { true } else { false } }
        }
        #expect(added, "events: \(log.all)")
        #expect(log.threadNames == ["SoundEngine-ctl"], "events arrived on \(log.threadNames)")
    }
}


/// Whether this process may run a thread at SCHED_RR `priority`: a scratch
/// thread asks for it with `pthread_setschedparam`, as the backend's render
/// thread does, and ends.
func realtimePriorityIsPermitted(_ priority: Int32) -> Bool {
    struct Probe {
        var priority: Int32
        var result: Int32 = -1
    }
    let probe = UnsafeMutablePointer<Probe>.allocate(capacity: 1)
    probe.initialize(to: Probe(priority: priority))
    defer { probe.deallocate() }
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { context in
        let probe = context!.assumingMemoryBound(to: Probe.self)
        var parameter = sched_param()
        parameter.sched_priority = probe.pointee.priority
        probe.pointee.result = pthread_setschedparam(pthread_self(), SCHED_RR, &parameter)
        return nil
    }, probe)
    guard started == 0 else { return false }
    pthread_join(thread, nil)
    return probe.pointee.result == 0
}

/// Opens `backend` on a private PulseAudio server with a playing music
/// stream, starts a phone call and ends it: module-role-cork must ask the
/// stream to cork, then to uncork, and both events must arrive on the
/// control loop's thread.
func expectCorkRequestsReach(_ backend: PulseAudioBackend) throws {
    let server = try PrivateSoundServer()
    defer { server.stop() }
    let log = EventLog()
    let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
    _ = try backend.openStream(configuration(server, role: .music), render: tone.entry, events: log.handler)
    defer { backend.close() }
    try backend.setPaused(false)
    let phone = try PhoneCall(server: server)
    defer { phone.hangUp() }
    let corked = eventually { log.all.contains(.system(.corkRequested)) }
    #expect(corked, "events: \(log.all)")
    try backend.setPaused(true)  // honour it, so the server will send request-uncork
    phone.hangUp()
    let uncorked = eventually { log.all.contains(.system(.uncorkRequested)) }
    #expect(uncorked, "events: \(log.all)")
    // The stream's callbacks run on the render thread and only push a
    // notice; the event itself is delivered by the control loop.
    #expect(log.threadNames == ["SoundEngine-ctl"], "events arrived on \(log.threadNames)")
}

/// Another client playing with `media.role=phone`: `pacat` fed by /dev/zero.
final class PhoneCall {
    private let process: Subprocess
    init(server: PrivateSoundServer) throws {
        process = try Subprocess(
            ["pacat", "--playback", "--property=media.role=phone", "--raw", "/dev/zero"],
            extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false)
    }
    func hangUp() { process.kill() }
}
