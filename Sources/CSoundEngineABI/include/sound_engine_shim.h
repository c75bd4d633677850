// What the Swift implementation of sound_engine.h (SoundEngineC) needs from
// C and a game must not see: the per-thread last error. Not installed; the
// library's version script keeps these symbols out of its exports, and they
// are hidden besides.
#ifndef SOUND_ENGINE_SHIM_H
#define SOUND_ENGINE_SHIM_H

#include <stdint.h>

/// Records a failure for se_last_error_message / se_last_error_session_code
/// of the calling thread. `message` is copied.
__attribute__((visibility("hidden"))) void se_shim_set_error(int32_t session_code, const char *message);

/// Records a success: the calling thread's last error becomes "".
__attribute__((visibility("hidden"))) void se_shim_clear_error(void);

#endif
