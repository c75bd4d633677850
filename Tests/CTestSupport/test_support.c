#define _GNU_SOURCE
#include "test_support.h"
#include <fcntl.h>
#include <unistd.h>

int se_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
int se_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
