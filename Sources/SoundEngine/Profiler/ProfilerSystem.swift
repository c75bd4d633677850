import Foundation
import Glibc

/// Every C call the profiler's link makes, in one place (a Unix-domain
/// socket, its folder, poll(2), a wake-up pipe). Each returns what
/// happened as a Swift value; none blocks (every descriptor is non-blocking).
enum ProfilerSystem {
    /// The folder the sockets live in, and the path of this process's:
    /// `$XDG_RUNTIME_DIR/soundengine/<pid>.sock`, or
    /// `/tmp/soundengine-<uid>/<pid>.sock` without `XDG_RUNTIME_DIR`.
    static func socketPath(environment: [String: String]) -> (folder: String, path: String) {
        let folder =
            if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
                runtime + "/soundengine"
            } else {
                "/tmp/soundengine-\(geteuid())"
            }
        return (folder, folder + "/\(getpid()).sock")
    }

    /// Creates `folder` mode 0700 (its parent must exist), or checks the one
    /// there: a folder (not a link) owned by us, then made 0700. `nil` when
    /// it is fit, else why not.
    static func prepareFolder(_ folder: String) -> String? {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return "cannot create \(folder): \(describe(errno))" }
        var info = stat()
        guard lstat(folder, &info) == 0 else { return "cannot read \(folder): \(describe(errno))" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        guard info.st_uid == geteuid() else { return "\(folder) belongs to uid \(info.st_uid), not to us (\(geteuid()))" }
        if info.st_mode & 0o777 != 0o700 && chmod(folder, 0o700) != 0 {
            return "cannot make \(folder) mode 0700: \(describe(errno))"
        }
        return nil
    }

    /// Removes the sockets in `folder` named `<pid>.sock` whose process no
    /// longer exists (a crashed game's). Returns how many.
    @discardableResult
    static func removeStaleSockets(in folder: String) -> Int {
        guard let dir = opendir(folder) else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".sock"), let pid = pid_t(name.dropLast(5)), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH, Glibc.unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// A non-blocking listening socket bound at `path`, mode 0600.
    static func listen(at path: String) -> Result<Int32, LinkError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            return .failure(LinkError("the socket path \(path) is longer than \(capacity - 1) bytes"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(LinkError("socket: \(describe(errno))")) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // The folder is 0700 already; 0600 keeps the socket ours if it is moved.
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 8) == 0 else {
            let error = LinkError("cannot listen at \(path): \(describe(errno))")
            close(fd)
            return .failure(error)
        }
        return .success(fd)
    }

    /// Accepts one waiting connection, non-blocking; `nil` when none waits.
    static func accept(_ listener: Int32) -> Int32? {
        // accept4 is a GNU extension Glibc's module does not show: fcntl after.
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        setNonBlockingCloseOnExec(fd)
        return fd
    }

    /// The uid of the process at the other end (`SO_PEERCRED`, taken at connect).
    static func peerUID(_ fd: Int32) -> uid_t? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// Our effective uid.
    static var uid: uid_t { geteuid() }

    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        /// This many bytes (more than 0).
        case bytes(Int)
        /// Nothing now (EAGAIN).
        case wouldBlock
        /// The other end closed, or the socket failed.
        case closed
    }

    /// Reads what is there into `buffer`.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        let n = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if n > 0 { return .bytes(n) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .closed
    }

    /// Writes what the socket takes of `bytes` (never SIGPIPE).
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        if n > 0 { return .bytes(n) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .closed
    }

    /// One descriptor poll(2) watches, and what it found.
    struct Watch {
        var fd: Int32
        var readable: Bool
        var writable: Bool
        /// Set by ``poll(_:timeoutMilliseconds:)``: input, or a hang-up or error.
        var canRead = false
        var canWrite = false
    }

    /// poll(2) on `watches` for at most `timeoutMilliseconds`.
    static func poll(_ watches: inout [Watch], timeoutMilliseconds: Int32) {
        var fds = watches.map {
            pollfd(fd: $0.fd, events: Int16(($0.readable ? POLLIN : 0) | ($0.writable ? POLLOUT : 0)), revents: 0)
        }
        guard Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return }
        for i in fds.indices {
            let revents = Int32(fds[i].revents)
            watches[i].canRead = revents & (POLLIN | POLLHUP | POLLERR) != 0
            watches[i].canWrite = revents & POLLOUT != 0
        }
    }

    /// A non-blocking pipe: (read end, write end).
    static func wakePipe() -> (Int32, Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        ends.forEach(setNonBlockingCloseOnExec)
        return (ends[0], ends[1])
    }

    /// Writes one byte to a wake pipe; a full pipe already wakes the reader.
    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = Glibc.write(fd, &byte, 1)
    }

    /// Empties a wake pipe.
    static func drain(_ fd: Int32) {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Gives the calling thread nice 10: on a busy machine the game's own
    /// threads (and the render thread above all) go first, the link gets
    /// what is left. (On Linux the nice value is per thread, and `who = 0`
    /// of PRIO_PROCESS means the calling thread.)
    static func lowerCallingThreadPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// The process's name.
    static var programName: String { ProcessInfo.processInfo.processName }

    private static func setNonBlockingCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// `struct ucred` (a GNU extension Glibc's module does not show), as
    /// `SO_PEERCRED` fills it: pid, uid, gid.
    private struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Why the link could not start (the logger says it; the game plays on).
struct LinkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
