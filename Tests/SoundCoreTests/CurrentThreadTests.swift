import Dispatch
import Foundation
import SoundCore
import Synchronization
import Testing

/// The name the kernel keeps for the calling thread, without the newline.
private func kernelName() -> [UInt8] {
    guard let file = fopen("/proc/thread-self/comm", "r") else { return [] }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = fread(&buffer, 1, buffer.count, file)
    return Array(buffer[..<count].prefix { $0 != UInt8(ascii: "\n") })
}

/// Runs `body` on a new thread, so renaming it leaves the test runner's threads
/// alone; waits up to 10 s for it.
private func onNewThread(_ body: @escaping @Sendable () -> [UInt8]) throws -> [UInt8] {
    final class Outcome: Sendable { let value = ControlLock<[UInt8]?>(nil) }
    let outcome = Outcome()
    let finished = DispatchSemaphore(value: 0)
    Thread {
        let result = body()
        outcome.value.withLock { $0 = result }
        finished.signal()
    }.start()
    try #require(finished.wait(timeout: .now() + 10) == .success, "the thread did not finish within 10 s")
    return try #require(outcome.value.withLock { $0 })
}

@Suite struct CurrentThreadTests {
    @Test(arguments: [
        "sound-events",  // short: kept whole
        "fifteen-bytes-x",  // exactly the kernel's 15
        "SoundEngineStreamingThread",  // long: the kernel keeps 15 bytes
        "ünïcødé-streamer",  // two-byte characters, cut on a character boundary
        "sound-streameré",  // 16 bytes: the cut falls inside é, and Linux keeps its first byte
    ])
    func nameAppearsInProcTruncatedTo15Bytes(name: String) throws {
        let shown = try onNewThread {
            CurrentThread.setName(name)
            return kernelName()
        }
        #expect(shown == Array(name.utf8.prefix(15)))
    }

    @Test func onlyTheCallingThreadIsRenamed() throws {
        let before = kernelName()
        let other = try onNewThread {
            CurrentThread.setName("renamed-elsewhere")
            return kernelName()
        }
        #expect(other == Array("renamed-elsewhere".utf8.prefix(15)))
        #expect(kernelName() == before)
    }
}
