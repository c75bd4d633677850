import Foundation
import Glibc

/// What can go wrong with a server, done to it from outside the way it
/// happens on a desktop: the server kills a stream or a client, stops
/// answering for a while. PulseAudio through `pacmd` (the CLI protocol the
/// sound-server script loads, in the server's runtime folder); pipewire-pulse
/// through `pw-cli destroy` of the PipeWire object behind the stream or client.
extension PrivateSoundServer {
    /// The server's runtime folder (its `XDG_RUNTIME_DIR`).
    public var runtimeDirectory: String { directory + "/runtime" }

    /// Runs `pacmd` against this PulseAudio server and returns its stdout.
    @discardableResult
    public func pacmd(_ arguments: String...) throws -> String {
        try Self.run(
            "pacmd", arguments, environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "HOME": directory + "/home"])
    }

    /// Runs `pw-cli` against this PipeWire server and returns its stdout.
    @discardableResult
    public func pwCLI(_ arguments: String...) throws -> String {
        try Self.run("pw-cli", arguments, environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
    }

    /// Has the server kill playback stream `index` (`pacmd kill-sink-input`;
    /// on pipewire-pulse the stream's node is destroyed).
    public func killSinkInput(_ index: Int) throws {
        if kind.isPulseAudio {
            try pacmd("kill-sink-input", String(index))
            return
        }
        guard let node = try sinkInputs().first(where: { $0.index == index })?.properties["object.id"] else {
            throw ServerError("sink input \(index) has no PipeWire node")
        }
        try pwCLI("destroy", node)
    }

    /// Has the server drop client `index` and everything it owns (`pacmd
    /// kill-client`; on pipewire-pulse the client object is destroyed).
    public func killClient(_ index: Int) throws {
        if kind.isPulseAudio {
            try pacmd("kill-client", String(index))
            return
        }
        guard let object = try clients().first(where: { $0.index == index })?.properties["object.id"] else {
            throw ServerError("client \(index) has no PipeWire object")
        }
        try pwCLI("destroy", object)
    }

    /// Stops every server process (SIGSTOP): the server hangs, its clients
    /// stay connected and hear nothing.
    public func freeze() { signalAll(SIGSTOP) }

    /// Lets every server process go on (SIGCONT).
    public func thaw() { signalAll(SIGCONT) }

    private func signalAll(_ signal: Int32) {
        for pid in serverProcesses { kill(pid, signal) }
    }
}
