import Synchronization

/// A bounded single-producer, single-consumer ring of trivial values in
/// memory allocated once. Never grows: `push` returns `false` when full.
///
/// Used both ways between the worlds: control → render (commands, the
/// producer serialised by the mixer's control mutex) and render → control
/// (events, the consumer serialised by the event mutex). Neither side ever
/// waits for the other. The indices count pushes and pops since creation
/// (they never wrap in practice: 2^63 operations).
///
/// A copyable handle to memory owned by whoever called `init`; that owner
/// calls `deallocate()` once, when neither thread can use the ring any more.
struct SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: at most one thread pushes and one pops at a time (the owners serialise them).

    /// Slots in the ring.
    let capacity: Int
    private let slots: UnsafeMutablePointer<Element>
    /// `head` (next pop, written by the consumer) and `tail` (next push,
    /// written by the producer), each on its own cache line.
    private let indices: UnsafeMutableRawPointer

    private var head: UnsafeMutablePointer<Atomic<Int>> { indices.assumingMemoryBound(to: Atomic<Int>.self) }
    private var tail: UnsafeMutablePointer<Atomic<Int>> {
        (indices + 64).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Allocates a ring of `capacity` slots (> 0).
    init(capacity: Int) {
        precondition(capacity > 0, "SPSCRing needs at least one slot")
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        indices = .allocate(byteCount: 128, alignment: 64)
        indices.bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        (indices + 64).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
    }

    /// Frees the memory. Not atomic: no thread may use the ring during or after.
    func deallocate() {
        slots.deallocate()
        indices.deallocate()
    }

    /// Appends `element`; `false` (and nothing written) when the ring is full.
    /// Producer thread only.
    func push(_ element: Element) -> Bool {
        let t = tail.pointee.load(ordering: .relaxed)  // relaxed: only this thread writes tail
        // acquiring: pairs with the consumer's releasing store of head in pop(),
        // so the slot we are about to overwrite has been read.
        let h = head.pointee.load(ordering: .acquiring)
        if t &- h >= capacity { return false }
        slots[t % capacity] = element
        // releasing: pairs with the consumer's acquiring load of tail in pop(),
        // publishing the element written above.
        tail.pointee.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Appends `first` and then `rest` together: the consumer sees all of
    /// them or none; `false` (and nothing written) when there is not room
    /// for all. Producer thread only.
    func push(_ first: Element, _ rest: [Element]) -> Bool {
        let t = tail.pointee.load(ordering: .relaxed)  // relaxed: only this thread writes tail
        // acquiring: as in push(_:).
        let h = head.pointee.load(ordering: .acquiring)
        if t &- h > capacity - 1 - rest.count { return false }
        slots[t % capacity] = first
        for (i, element) in rest.enumerated() { slots[(t &+ 1 &+ i) % capacity] = element }
        // releasing: as in push(_:), publishing every element written above.
        tail.pointee.store(t &+ 1 &+ rest.count, ordering: .releasing)
        return true
    }

    /// Removes and returns the oldest element, or `nil` when empty. Consumer thread only.
    func pop() -> Element? {
        let h = head.pointee.load(ordering: .relaxed)  // relaxed: only this thread writes head
        // acquiring: pairs with the producer's releasing store of tail in push().
        let t = tail.pointee.load(ordering: .acquiring)
        if h == t { return nil }
        let element = slots[h % capacity]
        // releasing: pairs with the producer's acquiring load of head in push(),
        // so the producer reuses the slot only after the read above.
        head.pointee.store(h &+ 1, ordering: .releasing)
        return element
    }

    /// Elements waiting, as seen from any thread (a snapshot).
    var count: Int {
        // relaxed: a statistic; no memory is read on the strength of it.
        tail.pointee.load(ordering: .relaxed) &- head.pointee.load(ordering: .relaxed)
    }
}

// Concrete entry points for the render thread: `@_noLocks` code may call only
// functions the checker can see, and the generic ones are specialised here.
extension SPSCRing where Element == Command {
    /// `pop()` for the command ring (render thread).
    @_noLocks
    func popCommand() -> Command? { pop() }
}

extension SPSCRing where Element == RenderEvent {
    /// `push(_:)` for the event ring (render thread).
    @_noLocks
    func pushEvent(_ event: RenderEvent) -> Bool { push(event) }
}
