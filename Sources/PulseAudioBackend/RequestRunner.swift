import CPulseAudio
import SoundCore

/// Issues libpulse requests on one context and waits for their answers: the
/// server model's and the hold repair's way of talking to the server.
///
/// Every request carries an object libpulse calls back with; the runner
/// keeps it in `pending` until its final callback ran, so its userdata stays
/// valid. ``stop()`` cancels what is still in flight (`pa_operation_cancel`:
/// libpulse never calls it again). Confinement: the context's loop thread
/// (callbacks) or a thread holding that loop's lock.
final class RequestRunner {
    /// Waits with the loop lock held until the condition holds or the
    /// deadline passes; returns whether it held.
    typealias Wait = (ContinuousClock.Instant, () -> Bool) -> Bool

    let context: PAContext
    let mainloop: PAMainloop
    let wait: Wait
    /// Set by `stop`; nothing is issued afterwards.
    private(set) var stopped = false
    private var pending: [ObjectIdentifier: PARequest] = [:]

    init(context: PAContext, mainloop: PAMainloop, wait: @escaping Wait) {
        self.context = context
        self.mainloop = mainloop
        self.wait = wait
    }

    /// Issues a request and keeps it (and so its userdata) alive until its
    /// final callback ran. Returns false when libpulse refused at once (or
    /// after `stop`).
    @discardableResult
    func issue<R: PARequest>(_ request: R, _ call: (R) -> PAOperation?) -> Bool {
        guard !stopped, let op = call(request) else { return false }
        request.operation = op
        let key = ObjectIdentifier(request)
        pending[key] = request
        request.onFinish = { [unowned self] in
            pending[key]?.operation?.unref()
            pending[key] = nil
            // A control thread may be waiting for this answer.
            mainloop.signal()
        }
        return true
    }

    /// The answer to one control call.
    final class Outcome {
        var done = false
        var ok = false
        var error = ""
        var gone = false
    }

    /// Issues a control call; its outcome fills in when the server answers.
    func submit(_ call: (PASuccessRequest) -> PAOperation?) -> Outcome {
        let outcome = Outcome()
        let request = PASuccessRequest { ok, error, gone in
            outcome.done = true
            outcome.ok = ok
            outcome.error = error
            outcome.gone = gone
        }
        if !issue(request, call) {
            outcome.done = true
            outcome.error = context.lastError
        }
        return outcome
    }

    /// Waits until `done`; throws when the server did not answer in time or the connection died.
    func waitFor(_ done: () -> Bool, deadline: ContinuousClock.Instant, _ what: String) throws(SoundEngineError) {
        let answered = wait(deadline) { done() || !context.isGood }
        guard context.isGood else {
            throw .mediaServicesFailed("the connection to PulseAudio was lost while asking it to \(what)")
        }
        guard answered else { throw .fail("PulseAudio did not answer in time when asked to \(what)") }
    }

    /// Runs one control call to completion; throws with the server's reason when it refused.
    func run(_ what: String, deadline: ContinuousClock.Instant, _ call: (PASuccessRequest) -> PAOperation?) throws(SoundEngineError) {
        let outcome = submit(call)
        try waitFor({ outcome.done }, deadline: deadline, what)
        guard outcome.ok else { throw .fail("PulseAudio refused to \(what): \(outcome.error)") }
    }

    /// Runs one list (or by-index) query to completion and returns its items;
    /// `nil` when the server answered with an error (the object is gone).
    func list<Info>(
        _ what: String, deadline: ContinuousClock.Instant, _ call: (PAListRequest<Info>) -> PAOperation?
    ) throws(SoundEngineError) -> [Info]? {
        var items: [Info] = []
        var end: Bool?
        let request = PAListRequest<Info>(onItem: { items.append($0) }, onEnd: { end = $0 })
        guard issue(request, call) else { throw .fail("PulseAudio refused to \(what): \(context.lastError)") }
        try waitFor({ end != nil }, deadline: deadline, what)
        return end == true ? items : nil
    }

    /// Fresh state of these sink inputs (streams that are gone are absent).
    func sinkInputs(_ indices: [UInt32], deadline: ContinuousClock.Instant) throws(SoundEngineError) -> [UInt32: PASinkInputInfo] {
        var found: [UInt32: PASinkInputInfo] = [:]
        var outstanding = 0
        for index in indices {
            let ok = issue(PAListRequest<PASinkInputInfo>(
                onItem: { found[$0.index] = $0 }, onEnd: { _ in outstanding -= 1 })
            ) { context.getSinkInputs(index, $0) }
            if ok { outstanding += 1 }
        }
        try waitFor({ outstanding == 0 }, deadline: deadline, "describe streams \(indices)")
        return found
    }

    /// Cancels every request in flight; nothing is issued afterwards. Lock held.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for request in pending.values {
            request.onFinish = nil
            if let op = request.operation {
                if op.isRunning { op.cancel() }
                op.unref()
            }
            request.operation = nil
        }
        pending = [:]
    }
}
