// GNU libc calls the Swift Glibc module does not expose (it is built without
// _GNU_SOURCE), for the tests' subprocess helper.
#ifndef SOUNDENGINE_TEST_SUPPORT_H
#define SOUNDENGINE_TEST_SUPPORT_H
#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): a pipe no concurrently spawned child inherits.
int se_pipe_cloexec(int fds[2]);
/// posix_spawn_file_actions_addclosefrom_np(actions, from): the child keeps no descriptor >= from.
int se_spawn_close_from(posix_spawn_file_actions_t *actions, int from);
#endif
