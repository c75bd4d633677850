import SoundCore
import Testing

/// Writes what it was called with into `destination` (as two `Int`s: the frame
/// count and the context's address) and counts calls in the `Int` at `context`.
private let echo: RenderFunction = { context, destination, frames in
    let out = destination.assumingMemoryBound(to: Int.self)
    out[0] = frames
    out[1] = Int(bitPattern: context)
    context?.assumingMemoryBound(to: Int.self).pointee += 1
}

@Suite struct RenderEntryTests {
    /// Calls `entry` once for `frames` frames; returns what `echo` wrote.
    private func call(_ entry: RenderEntry, frames: Int) -> [Int] {
        var out = [Int](repeating: -1, count: 2)
        out.withUnsafeMutableBytes { entry($0.baseAddress!, frames: frames) }
        return out
    }

    @Test(arguments: [0, 1, 256, 4097])
    func callPassesContextDestinationAndFrames(frames: Int) {
        var calls = 0
        withUnsafeMutablePointer(to: &calls) { counter in
            let entry = RenderEntry(function: echo, context: UnsafeMutableRawPointer(counter))
            #expect(call(entry, frames: frames) == [frames, Int(bitPattern: counter)])
            #expect(call(entry, frames: frames + 1) == [frames + 1, Int(bitPattern: counter)])
        }
        #expect(calls == 2)
    }

    @Test func nilContextArrivesAsNil() {
        let entry = RenderEntry(function: echo, context: nil)
        #expect(entry.context == nil)
        #expect(call(entry, frames: 64) == [64, 0])
    }

    @Test func copiesShareTheFunctionButKeepTheirOwnContext() {
        var first = 0
        var second = 0
        withUnsafeMutablePointer(to: &first) { a in
            withUnsafeMutablePointer(to: &second) { b in
                let entryA = RenderEntry(function: echo, context: UnsafeMutableRawPointer(a))
                var entryB = entryA
                entryB.context = UnsafeMutableRawPointer(b)
                _ = call(entryA, frames: 1)
                _ = call(entryB, frames: 1)
                _ = call(entryB, frames: 1)
                #expect(entryA.context == UnsafeMutableRawPointer(a))
            }
        }
        #expect(first == 1)
        #expect(second == 2)
    }
}
