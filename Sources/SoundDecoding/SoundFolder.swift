package import SoundCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A folder held open by descriptor, whose files are opened beneath it and
/// through no symbolic link: how a bank's streamed sounds stay inside the
/// bank's folder every time a voice opens them again, not only when the bank
/// was checked at load (docs/banks.md, "File paths and safety").
///
/// The folder itself is opened once (`open(O_DIRECTORY | O_CLOEXEC)`,
/// following links: it is what the game named); every file below it is
/// reached component by component with `openat(…, O_NOFOLLOW)` from that
/// descriptor, so a link swapped in anywhere below the folder after the load,
/// or a folder renamed away, cannot lead elsewhere. (`openat2` with
/// `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` would do it in one call, but has no
/// libc wrapper to call from Swift; refusing `..` and every link, one
/// component at a time, gives the same guarantee.) The descriptor closes
/// when the last holder lets go: the bank and the stream openers of its
/// sounds.
package final class SoundFolder: Sendable {
    /// The folder's path as it was opened (absolute when the bank's is).
    package let path: String
    /// `O_RDONLY | O_DIRECTORY | O_CLOEXEC`; closed in deinit.
    private let descriptor: Int32

    /// Opens `path` (a directory).
    /// - Throws: `fileNotFound` naming the folder when it cannot be opened.
    package init(path: String) throws(SoundEngineError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .fileNotFound("the folder '\(path)' cannot be opened: \(Self.describe(errno))")
        }
        self.path = path
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Opens the regular file at `file` — relative to the folder, or an
    /// absolute path beneath it — for reading, and returns its descriptor
    /// (`O_CLOEXEC`; the caller closes it). No component may be `..` or a
    /// symbolic link, and the file must be a regular file (a FIFO swapped in
    /// would block the reader forever, so none is ever opened for reading).
    /// - Throws: `fileNotFound` naming the file and why.
    package func openFile(_ file: String) throws(SoundEngineError) -> Int32 {
        func refuse(_ why: String) -> SoundEngineError {
            .fileNotFound("sound file '\(file)' cannot be opened inside the folder '\(path)': \(why)")
        }
        guard !file.utf8.contains(0) else { throw refuse("the path contains a NUL character") }
        var relative = Substring(file)
        if file.hasPrefix("/") {
            let prefix = path.hasSuffix("/") ? path : path + "/"
            guard file.hasPrefix(prefix) else { throw refuse("it is not inside the folder") }
            relative = file.dropFirst(prefix.count)
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard let name = components.last else { throw refuse("the path names no file") }
        if components.contains("..") { throw refuse("it climbs out with '..'") }
        var directory = descriptor
        defer { if directory != descriptor { close(directory) } }
        for component in components.dropLast() {
            let next = openat(directory, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { throw refuse(why(errno, opening: component, in: directory)) }
            if directory != descriptor { close(directory) }
            directory = next
        }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; a regular
        // file ignores it (cleared below anyway).
        let fd = openat(directory, String(name), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw refuse(why(errno, opening: name, in: directory)) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw refuse("'\(name)' is not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Why opening `component` in `directory` failed with `error`, in words.
    private func why(_ error: Int32, opening component: Substring, in directory: Int32) -> String {
        var status = stat()
        if fstatat(directory, String(component), &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFLNK {
            return "'\(component)' is a symbolic link (a streamed sound's path may not pass through one)"
        }
        return "'\(component)': \(Self.describe(error))"
    }

    private static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
