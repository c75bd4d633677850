import Synchronization

/// Captured input on its way from the record stream's read callback (the
/// mainloop thread, which also renders) to the engine's event thread or the
/// game: a single-producer, single-consumer ring of float32 samples in
/// preallocated memory. The producer never waits, allocates or locks: when
/// the ring is full the newest input is dropped.
///
/// Plain memory (no class reference: the read callback does no reference
/// counting): the backend allocates one for its whole life, across capture
/// streams and reconnects. `storage` is written only by the one producer
/// (between its load of `read` and its releasing store of `written`) and read
/// only by the one consumer (between its acquiring load of `written` and its
/// store of `read`): the atomics order every access.
///
/// Each index has one writer: `written` the producer, `read` the consumer,
/// `discardUpTo` the control side (which opens capture streams, under the
/// backend's lock). A discard is a request: ``discard()`` records how far
/// the producer had written, and the consumer skips to there on its next
/// ``read(into:channels:)``. (When the control side stored `read` itself, a
/// consumer mid-read stored its own older value over it — samples read
/// twice — or the producer refilled slots the consumer was still copying.)
/// Until that next read the discarded samples keep their room in the ring.
struct CaptureRing: ~Copyable {
    /// Capacity in samples (a power of two).
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Samples ever written (producer) and read (consumer).
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    /// The consumer skips every sample before this (`written` as
    /// ``discard()`` saw it); only grows, as `written` does.
    private let discardUpTo = Atomic<Int>(0)

    init(minimumCapacity: Int) {
        var n = 1024
        while n < minimumCapacity { n <<= 1 }
        capacity = n
        storage = .allocate(capacity: n)
        storage.initialize(repeating: 0, count: n)
    }

    /// Frees the storage; the ring must not be used after.
    func free() { storage.deallocate() }

    /// Producer: appends what fits of `samples` (whole frames of
    /// `channels`), or that many zeros when `samples` is nil (a hole in the
    /// capture); the rest is dropped.
    @_noLocks @_noAllocation
    func write(_ samples: UnsafePointer<Float>?, count: Int, channels: Int) {
        let w = written.load(ordering: .relaxed)  // relaxed: only this thread stores it
        // acquiring: pairs with the consumer's releasing store, so the space is free.
        let r = read.load(ordering: .acquiring)
        var n = min(count, capacity - (w - r))
        n -= n % max(channels, 1)
        var i = 0
        while i < n {
            storage[(w + i) & (capacity - 1)] = samples?[i] ?? 0
            i += 1
        }
        // releasing: publishes the samples written above.
        written.store(w + n, ordering: .releasing)
    }

    /// Consumer: moves up to `buffer.count` samples (whole frames) into
    /// `buffer`; returns the samples moved.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, channels: Int) -> Int {
        var r = read.load(ordering: .relaxed)  // relaxed: only this thread stores it
        // acquiring: pairs with discard()'s releasing store, so the load of
        // `written` below sees at least the value discard() read.
        let skipTo = discardUpTo.load(ordering: .acquiring)
        // acquiring: pairs with the producer's releasing store.
        let w = written.load(ordering: .acquiring)
        // Honour a discard: skip what was written before it (never past `w`).
        r = max(r, min(skipTo, w))
        var n = min(w - r, buffer.count)
        n -= n % max(channels, 1)
        for i in 0..<n { buffer[i] = storage[(r + i) & (capacity - 1)] }
        // releasing: the producer may reuse the space only after we copied it out.
        read.store(r + n, ordering: .releasing)
        return n
    }

    /// Control side (not the consumer, not the producer): forgets everything
    /// written so far (a new capture stream starts fresh). The consumer
    /// skips it on its next read; samples written after this are kept.
    func discard() {
        // acquiring: pairs with the producer's releasing store of `written`,
        // so what this saw is ordered before the store below.
        let w = written.load(ordering: .acquiring)
        // releasing: pairs with the consumer's acquiring load in read(into:channels:).
        discardUpTo.store(w, ordering: .releasing)
    }
}
