// The whole libpulse surface SoundEngine may use. Only PulseAudioBackend imports this module.
#ifndef SOUNDENGINE_CPULSEAUDIO_SHIM_H
#define SOUNDENGINE_CPULSEAUDIO_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>
#endif
