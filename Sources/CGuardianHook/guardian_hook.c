// The guardian process's way in: see include/guardian_hook.h.
#define _GNU_SOURCE
#include "guardian_hook.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <link.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

// The guardian's main, in Swift (PulseAudioBackend, `soundengine_guardian_main`).
// Weak: a program that links this library without the backend simply runs.
extern int soundengine_guardian_main(void) __attribute__((weak));

// The absolute path of the shared library holding this hook (libsoundengine.so
// of the C API), found when the library is loaded; empty when the hook is
// linked into the main executable or the path cannot be found.
static char library_path[PATH_MAX];

// Default priority, on purpose: the Swift runtime registers the executable's
// types and conformances from its own constructor (swiftrt.o, linked first),
// and the guardian's Swift code needs them.
__attribute__((constructor)) static void se_guardian_hook(void) {
    const char *journal = getenv("SOUNDENGINE_GUARDIAN");
    if (journal == NULL || journal[0] == '\0' || soundengine_guardian_main == NULL) {
        // Now, while the path the loader used still means what it meant
        // (a game may chdir later, and dlopen may have used a relative path).
        Dl_info self;
        if (!se_guardian_hook_in_main_executable() && dladdr((void *)&se_guardian_hook, &self) != 0 &&
            self.dli_fname != NULL && realpath(self.dli_fname, library_path) == NULL)
            library_path[0] = '\0';
        return;
    }
    // The guardian of a game that loads SoundEngine as a shared library was
    // started with this library preloaded (Guardian.swift); nothing it starts
    // needs it.
    unsetenv("LD_PRELOAD");
    _exit(soundengine_guardian_main());
}

const char *se_guardian_hook_library_path(void) { return library_path[0] == '\0' ? NULL : library_path; }

// dl_iterate_phdr visits the main program first: is `data` (an address of
// ours) inside one of its loaded segments?
static int in_first_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    uintptr_t address = (uintptr_t)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (address >= start && address < start + segment->p_memsz) return 2;
    }
    return 1;  // stop after the first object either way
}

int se_guardian_hook_in_main_executable(void) {
    return dl_iterate_phdr(in_first_object, (void *)&se_guardian_hook_in_main_executable) == 2;
}

int se_guardian_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

void se_guardian_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = first; fd < (max > 0 ? max : 1024); fd++) close((int)fd);
}

int se_guardian_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

short se_guardian_setsid_flag(void) { return POSIX_SPAWN_SETSID; }
