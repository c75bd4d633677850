import CPulseAudio
import Foundation

// MARK: - C callbacks

func contextStateCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.contextStateChanged()
}

func streamStateCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.streamStateChanged()
}

func streamUnderflowCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata) else { return }
    connection.status.pointee.underflows.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
    connection.notices.pointee.push(.underflow)
}

func streamSuspendedCallback(_ stream: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata), let stream else { return }
    connection.notices.pointee.push(.suspended, PAStream(raw: stream).isSuspended ? 1 : 0)
}

func streamEventCallback(
    _ stream: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ properties: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?
) {
    guard let connection = Connection.from(userdata), let name else { return }
    // Compared in place (no String is built on the render thread).
    if PAStreamEvent.isRequestCork(name) {
        connection.notices.pointee.push(.corkRequested)
    } else if PAStreamEvent.isRequestUncork(name) {
        connection.notices.pointee.push(.uncorkRequested)
    }
}

func controlContextStateCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    Connection.from(userdata)?.controlContextStateChanged()
}

/// Runs once on the mainloop thread: asks for SCHED_RR at the requested
/// priority. Refusal (EPERM without privilege or rtkit) leaves the thread as
/// it was; the result is reported in `GrantedStream.realtimePriority`.
func raiseLoopThreadPriority(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ userdata: UnsafeMutableRawPointer?) {
    guard let connection = Connection.from(userdata) else { return }
    var param = sched_param()
    param.sched_priority = connection.requestedPriority
    let ok = pthread_setschedparam(pthread_self(), SCHED_RR, &param) == 0
    connection.grantedPriority = ok ? connection.requestedPriority : 0
    connection.mainloop?.signal()
}


/// Wakes waiters when an operation completes; userdata is the mainloop.
func operationDoneCallback(_ stream: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    PAMainloop(raw: OpaquePointer(userdata)).signal()
}

