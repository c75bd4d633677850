// The result codes' names and the per-thread last error of sound_engine.h.
//
// Each thread that ever failed a call owns one heap block with its last
// message, freed by a pthread key destructor when the thread exits (no
// _Thread_local pointer: that would leak the block of every thread that
// ends). Success on a thread that never failed touches nothing.
#include "sound_engine.h"
#include "sound_engine_shim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct LastError {
    int32_t session_code;
    size_t capacity;  // bytes of message, terminator included
    char message[];
} LastError;

static pthread_key_t last_error_key;
static pthread_once_t last_error_once = PTHREAD_ONCE_INIT;
static int last_error_key_ok;

static void make_key(void) { last_error_key_ok = pthread_key_create(&last_error_key, free) == 0; }

static LastError *current(void) {
    pthread_once(&last_error_once, make_key);
    return last_error_key_ok ? pthread_getspecific(last_error_key) : NULL;
}

void se_shim_set_error(int32_t session_code, const char *message) {
    LastError *last = current();
    if (!last_error_key_ok) return;
    size_t length = strlen(message);
    if (last == NULL || last->capacity < length + 1) {
        // At least 256 bytes, so most messages reuse the first block.
        size_t capacity = length + 1 < 256 ? 256 : length + 1;
        LastError *grown = realloc(last, sizeof(LastError) + capacity);
        if (grown == NULL) {
            if (last != NULL) {  // keep the old block: the message is cut
                last->session_code = session_code;
                memcpy(last->message, message, last->capacity - 1);
                last->message[last->capacity - 1] = '\0';
            }
            return;
        }
        grown->capacity = capacity;
        last = grown;
        pthread_setspecific(last_error_key, last);
    }
    last->session_code = session_code;
    memcpy(last->message, message, length + 1);
}

void se_shim_clear_error(void) {
    LastError *last = current();
    if (last == NULL) return;
    last->session_code = 0;
    last->message[0] = '\0';
}

const char *se_last_error_message(void) {
    LastError *last = current();
    return last == NULL ? "" : last->message;
}

int32_t se_last_error_session_code(void) {
    LastError *last = current();
    return last == NULL ? 0 : last->session_code;
}

const char *se_result_string(SE_Result result) {
    switch (result) {
    case SE_NotImplemented: return "SE_NotImplemented";
    case SE_Success: return "SE_Success";
    case SE_Fail: return "SE_Fail";
    case SE_InvalidFile: return "SE_InvalidFile";
    case SE_MaxReached: return "SE_MaxReached";
    case SE_IDNotFound: return "SE_IDNotFound";
    case SE_InvalidParameter: return "SE_InvalidParameter";
    case SE_InsufficientMemory: return "SE_InsufficientMemory";
    case SE_FileNotFound: return "SE_FileNotFound";
    case SE_DeviceNotReady: return "SE_DeviceNotReady";
    case SE_Busy: return "SE_Busy";
    case SE_AlreadyInitialized: return "SE_AlreadyInitialized";
    case SE_NotInitialized: return "SE_NotInitialized";
    default: return "SE_Unknown";
    }
}
