import Foundation
import Testing

@testable import soundengine_top

/// A recording file round-trips: what the recorder writes, `read` gives back.
struct RecordingTests {
    @Test func recordThenRead() throws {
        let folder = try ScratchFolder()
        let path = folder.path + "/r.rec"
        do {
            let recorder = try SessionRecording.Recorder(path: path, now: 100)
            recorder.record(#"{"type":"hello","t":0}"#, now: 100)
            recorder.record(#"{"type":"voices","t":1, "voices":[]}"#, now: 101.25)
        }
        let entries = try SessionRecording.read(path: path)
        #expect(entries == [.init(offset: 0, line: #"{"type":"hello","t":0}"#), .init(offset: 1.25, line: #"{"type":"voices","t":1, "voices":[]}"#)])
    }

    @Test func aDamagedFileIsRefusedWithItsLine() throws {
        let folder = try ScratchFolder()
        let path = folder.path + "/bad.rec"
        try Data("# soundengine-top recording 1\n0.5 {}\nnonsense\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SessionRecording.Failure.self) { try SessionRecording.read(path: path) }
        #expect(throws: (any Error).self) { try SessionRecording.read(path: folder.path + "/missing.rec") }
    }
}
