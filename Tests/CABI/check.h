/*
 * The checks the C API's test programs share (misuse.c, features.c): each
 * counts, prints a failure with its line, and the program ends with
 * check_summary(). Polls wait for a condition with a deadline, never a
 * fixed sleep.
 */
#ifndef SOUND_ENGINE_TEST_CHECK_H
#define SOUND_ENGINE_TEST_CHECK_H

#include <sound_engine.h>

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static atomic_int checks, failures;

/* `got` must be `want`, with a message exactly when it failed (and the session code of a bad argument). */
static void expect(SE_Result want, SE_Result got, const char *call, const char *file, int line) {
    atomic_fetch_add(&checks, 1);
    const char *message = se_last_error_message();
    if (got != want) {
        atomic_fetch_add(&failures, 1);
        fprintf(stderr, "%s:%d: %s\n    returned %s, expected %s (%s)\n", file, line, call,
                se_result_string(got), se_result_string(want), message);
    } else if ((want == SE_Success) != (message[0] == '\0')) {
        atomic_fetch_add(&failures, 1);
        fprintf(stderr, "%s:%d: %s\n    returned %s with message \"%s\"\n", file, line, call,
                se_result_string(got), message);
    } else if (want == SE_InvalidParameter && se_last_error_session_code() != -50) {
        atomic_fetch_add(&failures, 1);
        fprintf(stderr, "%s:%d: %s: session code %d, expected -50\n", file, line, call,
                se_last_error_session_code());
    }
}

static void expect_true(int ok, const char *what, const char *file, int line) {
    atomic_fetch_add(&checks, 1);
    if (!ok) {
        atomic_fetch_add(&failures, 1);
        fprintf(stderr, "%s:%d: %s\n", file, line, what);
    }
}

#define EXPECT(want, call) expect((want), (call), #call, __FILE__, __LINE__)
#define INVALID(call) EXPECT(SE_InvalidParameter, call)
#define UNINITIALIZED(call) EXPECT(SE_NotInitialized, call)
#define OK(call) EXPECT(SE_Success, call)
#define TRUE(condition) expect_true((condition), #condition, __FILE__, __LINE__)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* Polls `condition` every 5 ms for up to `seconds`; a check that it came true. */
#define WAIT_UNTIL(condition, seconds) \
    do { \
        double deadline_ = now() + (seconds); \
        while (!(condition) && now() < deadline_) sleep_ms(5); \
        TRUE(condition); \
    } while (0)

/* Prints "NAME: N checks, N failed"; the exit status of the program. */
static int check_summary(const char *name) {
    printf("%s: %d checks, %d failed\n", name, atomic_load(&checks), atomic_load(&failures));
    return atomic_load(&failures) == 0 ? 0 : 1;
}

#endif
