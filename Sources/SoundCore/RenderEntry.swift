/// The C-callable function a backend calls from its real-time thread to fill
/// an output buffer.
///
/// - Parameters:
///   - context: the opaque pointer stored in ``RenderEntry/context``.
///   - destination: interleaved samples, in the ``StreamFormat`` agreed before
///     the stream started, with room for `frames` frames.
///   - frames: how many frames to write. Any count: the callee keeps its own
///     quantum and carries leftovers between calls.
///
/// Contract (the render world): the function must not lock, allocate, do I/O,
/// throw, print or touch reference-counted objects other threads retain or
/// release. It is a `@convention(c)` function so that `@_noLocks` and
/// `@_noAllocation` callers may call it.
package typealias RenderFunction = @convention(c) (
    _ context: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer, _ frames: Int
) -> Void

/// A render function plus the context it needs; what a producer of audio (the
/// mixer, a test tone) hands to a backend.
package struct RenderEntry: @unchecked Sendable {
    // @unchecked: `context` is an opaque pointer whose owner (the producer)
    // guarantees it stays valid until the backend that holds this entry is closed.

    /// The function the backend calls on its real-time thread.
    package var function: RenderFunction
    /// Opaque state passed back to `function`; owned by the producer.
    package var context: UnsafeMutableRawPointer?

    /// Pairs a render function with its context.
    package init(function: RenderFunction, context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }

    /// Calls the function. Real-time safe if the function is.
    ///
    /// The compiler's performance checker cannot follow a call through a
    /// function pointer, so this call is where the check hands over: the
    /// ``RenderFunction`` contract makes the callee responsible, and the
    /// mixer's render function is itself marked `@_noLocks`/`@_noAllocation`.
    @_noLocks @_noAllocation
    package func callAsFunction(_ destination: UnsafeMutableRawPointer, frames: Int) {
        _unsafePerformance { function(context, destination, frames) }
    }
}
