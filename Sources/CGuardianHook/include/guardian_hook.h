// The guardian process's way in (docs/pulseaudio.md, "Nothing left behind").
//
// The engine starts its guardian by running the game's own executable again
// (/proc/self/exe) with SOUNDENGINE_GUARDIAN in the environment. A
// constructor in this library sees it before the game's main runs and hands
// the process to the guardian, which never returns to the game's code. When
// the library is a shared object (the C API), the engine preloads it into
// that run (LD_PRELOAD), so the constructor runs there too.
#ifndef SOUNDENGINE_GUARDIAN_HOOK_H
#define SOUNDENGINE_GUARDIAN_HOOK_H

/// 1 when the hook is linked into the main executable (so running
/// /proc/self/exe again reaches it before main), 0 when it sits in a shared
/// library or cannot be found.
int se_guardian_hook_in_main_executable(void);

/// The absolute path of the shared library this hook is linked into (the C
/// API's libsoundengine.so), or NULL when it is in the main executable or
/// the path could not be found. Running /proc/self/exe with this library in
/// LD_PRELOAD reaches the hook before main, however the game loaded it.
const char *se_guardian_hook_library_path(void);

#include <sys/types.h>

/// pidfd_open(2): a descriptor that becomes readable when `pid` exits; -1
/// with errno set when the kernel has none (before Linux 5.3) or `pid` is gone.
int se_guardian_pidfd_open(pid_t pid);

/// pipe2(fds, O_CLOEXEC): 0, or -1 with errno set.
int se_guardian_pipe(int fds[2]);

/// POSIX_SPAWN_SETSID (a GNU extension the Swift Glibc module does not show).
short se_guardian_setsid_flag(void);

/// Closes every descriptor from `first` up (close_range(2), else one by one).
void se_guardian_close_from(int first);

#endif
