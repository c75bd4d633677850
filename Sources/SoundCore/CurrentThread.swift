import Glibc

/// The calling thread, as the kernel sees it.
package enum CurrentThread {
    /// Names the calling thread as `ps`, `top -H` and debuggers show it (the
    /// kernel keeps 15 bytes). Written to `/proc/thread-self/comm`, because
    /// `pthread_setname_np` is a GNU extension Swift's Glibc module hides.
    /// Not for the render thread (it is file I/O).
    public static func setName(_ name: String) {
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(String(name.utf8.prefix(15)) ?? name, file)
        fclose(file)
    }
}
