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

typedef void (*initializer)(int, char **, char **);

// Runs the initializers of the shared object holding `self` that come after
// `self` in its DT_INIT_ARRAY, as the dynamic loader would after `self`
// returns (it never gets to: the guardian _exits).
//
// Why: in libsoundengine.so the Swift runtime, libdispatch, Foundation and
// ICU are linked statically, and their initializers follow this one (the
// library's own objects come first on the link line); the guardian's Swift
// code needs them all. glibc relocates DT_INIT_ARRAY's address by the
// object's load address when it calls it (elf/dl-init.c), never in place;
// both readings are tried, and the one holding `self` is used.
static void finish_initializing_library(initializer self, int argc, char **argv, char **envp) {
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1((void *)self, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return;
    ElfW(Addr) address = 0;
    size_t bytes = 0;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_INIT_ARRAY) address = d->d_un.d_ptr;
        else if (d->d_tag == DT_INIT_ARRAYSZ) bytes = d->d_un.d_val;
    }
    size_t count = bytes / sizeof(initializer);
    const ElfW(Addr) bases[2] = {map->l_addr + address, address};
    for (int b = 0; b < 2 && address != 0; b++) {
        initializer *entries = (initializer *)bases[b];
        size_t i = 0;
        while (i < count && entries[i] != self) i++;
        if (i == count) continue;
        for (i++; i < count; i++) entries[i](argc, argv, envp);
        return;
    }
}

// Default priority, on purpose: the Swift runtime registers the executable's
// types and conformances from its own constructor (swiftrt.o, linked first),
// and the guardian's Swift code needs them. glibc passes the process's
// arguments and environment to initializers.
__attribute__((constructor)) static void se_guardian_hook(int argc, char **argv, char **envp) {
    const char *journal = getenv("SOUNDENGINE_GUARDIAN");
    int in_executable = se_guardian_hook_in_main_executable();
    if (journal == NULL || journal[0] == '\0' || soundengine_guardian_main == NULL) {
        // Now, while the path the loader used still means what it meant
        // (a game may chdir later, and dlopen may have used a relative path).
        Dl_info self;
        if (!in_executable && dladdr((void *)&se_guardian_hook, &self) != 0 && self.dli_fname != NULL &&
            realpath(self.dli_fname, library_path) == NULL)
            library_path[0] = '\0';
        return;
    }
    // The guardian of a game that loads SoundEngine as a shared library was
    // started with this library preloaded (Guardian.swift); nothing it starts
    // needs it. In the library, the runtime it links statically comes after
    // this initializer: run it first. (In an executable the runtime is in
    // libraries, initialized before it; the executable's own later
    // initializers are the game's and must not run.)
    unsetenv("LD_PRELOAD");
    if (!in_executable) finish_initializing_library(se_guardian_hook, argc, argv, envp);
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
