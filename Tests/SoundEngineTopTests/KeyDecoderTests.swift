import TerminalUI
import Testing

/// The bytes xterm, tmux and the Linux console send, decoded.
struct KeyDecoderTests {
    static let cases: [([UInt8], [Key])] = [
        (Array("q1".utf8), [.character("q"), .character("1")]),
        ([0x03], [.controlC]),
        ([0x09, 0x0D, 0x7F, 0x08], [.tab, .enter, .backspace, .backspace]),
        (Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8), [.up, .down, .right, .left]),
        (Array("\u{1B}OA\u{1B}OD".utf8), [.up, .left]),
        (Array("\u{1B}[5~\u{1B}[6~".utf8), [.pageUp, .pageDown]),
        (Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~".utf8), [.home, .end, .home, .end]),
        (Array("\u{1B}[Z".utf8), [.backTab]),
        (Array("\u{1B}[1;5A".utf8), [.up]),  // Ctrl-Up: still up
        (Array("\u{1B}[15~\u{1B}OP".utf8), [.function(5), .function(1)]),
        (Array("é".utf8), [.character("é")]),
        (Array("\u{1B}[99x".utf8), [.unknown(Array("\u{1B}[99x".utf8))]),
    ]

    @Test(arguments: cases) func decodes(bytes: [UInt8], keys: [Key]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == keys)
        #expect(!decoder.hasPending)
    }

    @Test func sequencesSplitAcrossReadsWait() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.decode(Array("[".utf8)) == [])
        #expect(decoder.decode(Array("5~x".utf8)) == [.pageUp, .character("x")])
        #expect(decoder.decode([0xC3]) == [])
        #expect(decoder.decode([0xA9]) == [.character("é")])
    }

    @Test func aLoneEscapeIsTakenOnFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
        #expect(decoder.decode(Array("\u{1B}x".utf8)) == [.escape, .character("x")])
    }
}
