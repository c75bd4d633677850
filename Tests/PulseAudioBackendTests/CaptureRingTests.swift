import Glibc
@testable import PulseAudioBackend
import SoundServerSupport
import Synchronization
import Testing

/// The capture ring under three threads: the read callback writing, the
/// game (or event thread) reading, and the control side discarding as it
/// opens capture streams.
@Suite struct CaptureRingTests {
    /// The ring in plain memory, shared by the test's threads as the backend
    /// shares it with the read callback.
    final class SharedRing: @unchecked Sendable {
        // @unchecked: `ring` never changes; the ring's own atomics order every access through it.
        let ring: UnsafeMutablePointer<CaptureRing>
        /// The next value the producer writes: every sample is the count of
        /// samples offered before it, so values read must only grow.
        let offered = Atomic<Int>(0)
        /// Samples offered before the last `discard()` began: no read begun
        /// after that discard returned may return one of them.
        let discardedBelow = Atomic<Int>(0)
        /// The last value the consumer read: the producer waits while it is
        /// more than a few rings ahead of it (or of the last discard), so however the scheduler treats the
        /// threads, the values are not all spent
        /// on drops before the consumer runs. Drops still happen: the window
        /// is four rings wide.
        let consumed = Atomic<Int>(-1)
        /// Set by the producer when it has offered all it will; by the test when it stops.
        let producerDone = Atomic<Bool>(false)
        let done = Atomic<Bool>(false)

        init(capacity: Int) {
            ring = .allocate(capacity: 1)
            ring.initialize(to: CaptureRing(minimumCapacity: capacity))
        }

        deinit {
            ring.pointee.free()
            ring.deinitialize(count: 1)
            ring.deallocate()
        }
    }

    @Test func onlyTheConsumerMovesTheReadIndexSoDiscardsRaceNothing() {
        let shared = SharedRing(capacity: 1024)
        // The producer (the read callback): frames of 2 samples, values 0, 1, 2, …
        let producer = JoinableThread {
            // (A full ring takes only part of a chunk: values read may jump, never go back.)
            var chunk = [Float](repeating: 0, count: 64)
            // Each value travels as a Float's bit pattern, which the ring
            // copies exactly: below 0x7F80_0000 every pattern is a finite
            // float, so the producer does not run out of values while the
            // consumer waits for a CPU (as whole floats, below 2^24, it did:
            // a loaded CI run raced only 97 reads before the values ran out).
            while !shared.done.load(ordering: .relaxed), shared.offered.load(ordering: .relaxed) < 0x7F00_0000 {
                let base = shared.offered.load(ordering: .relaxed)
                // (What a discard dropped counts as consumed: nothing is left to read of it.)
                let behind = max(shared.consumed.load(ordering: .relaxed), shared.discardedBelow.load(ordering: .relaxed))
                if base - behind > 4 * 1024 {
                    sched_yield()
                    continue
                }
                for i in 0..<chunk.count { chunk[i] = Float(bitPattern: UInt32(truncatingIfNeeded: base + i)) }
                chunk.withUnsafeBufferPointer { shared.ring.pointee.write($0.baseAddress, count: $0.count, channels: 2) }
                // releasing: what was written is ordered before the count a discarder reads.
                shared.offered.store(base + chunk.count, ordering: .releasing)
            }
            // releasing: pairs with the consumer's acquiring load; every write is done.
            shared.producerDone.store(true, ordering: .releasing)
        }
        // The control side: discards over and over.
        let discarder = JoinableThread {
            while !shared.done.load(ordering: .relaxed) {
                // acquiring: pairs with the producer's store; everything below it was written (or dropped).
                let before = shared.offered.load(ordering: .acquiring)
                shared.ring.pointee.discard()
                // releasing: a read that sees this starts after the discard returned.
                shared.discardedBelow.store(before, ordering: .releasing)
                for _ in 0..<50 { sched_yield() }
            }
        }
        producer.start()
        discarder.start()
        // The consumer: reads until it has checked two million samples, or the
        // producer has offered all its values and the ring is empty, checking every sample.
        var buffer = [Float](repeating: -1, count: 96)
        var last = -1
        var read = 0
        /// Reads that got samples while the producer was still writing (and
        /// the discarder discarding): the overlap the test is about.
        var overlapping = 0
        var failures: [String] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        // Two million samples checked is plenty; under load, stop there, or
        // once 5,000 reads have raced the other two threads.
        while failures.count < 5, read < 2_000_000, overlapping < 5000, ContinuousClock.now < deadline {
            // acquiring: pairs with the discarder's releasing store.
            let floor = shared.discardedBelow.load(ordering: .acquiring)
            // acquiring: pairs with the producer's last store; a read after it sees every write.
            let finished = shared.producerDone.load(ordering: .acquiring)
            let n = buffer.withUnsafeMutableBufferPointer { shared.ring.pointee.read(into: $0, channels: 2) }
            if n == 0, finished { break }
            if n % 2 != 0 { failures.append("read \(n) samples: not whole frames") }
            for i in 0..<n {
                let value = Int(buffer[i].bitPattern)
                if value <= last {
                    failures.append("sample \(value) after \(last): read twice or out of order")
                } else if value < floor {
                    failures.append("sample \(value) read after a discard of everything below \(floor)")
                }
                last = max(last, value)
            }
            read += n
            if n > 0 && !finished { overlapping += 1 }
            shared.consumed.store(last, ordering: .relaxed)
        }
        shared.done.store(true, ordering: .relaxed)
        producer.join()
        discarder.join()
        #expect(failures.isEmpty, "\(failures)")
        // How much the consumer reads depends on the machine's load (the
        // discarder may drop most of what the producer writes while the
        // consumer waits for a CPU: a CI run read under a million samples);
        // what matters is that many reads raced the other two threads, within
        // the deadline or not (with four busy processes beside it on two
        // cores: 5,000 in half a second here).
        #expect(overlapping >= 100 || !failures.isEmpty, "only \(overlapping) reads overlapped the producer (\(read) samples): the threads hardly overlapped")
        print("CaptureRing: \(read) samples in \(overlapping) reads that raced the producer and the discarder")
    }

    @Test func aDiscardSkipsWhatWasWrittenBeforeItAndKeepsWhatCameAfter() {
        let shared = SharedRing(capacity: 1024)
        let ring = shared.ring
        let old: [Float] = [1, 2, 3, 4]
        let new: [Float] = [5, 6]
        old.withUnsafeBufferPointer { ring.pointee.write($0.baseAddress, count: 4, channels: 1) }
        ring.pointee.discard()
        new.withUnsafeBufferPointer { ring.pointee.write($0.baseAddress, count: 2, channels: 1) }
        var buffer = [Float](repeating: 0, count: 8)
        let n = buffer.withUnsafeMutableBufferPointer { ring.pointee.read(into: $0, channels: 1) }
        #expect(Array(buffer.prefix(n)) == [5, 6])
        #expect(buffer.withUnsafeMutableBufferPointer { ring.pointee.read(into: $0, channels: 1) } == 0)
    }
}
