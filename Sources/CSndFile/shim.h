// libsndfile, for decoding sound files. Only SoundDecoding imports this module.
#ifndef SOUNDENGINE_CSNDFILE_SHIM_H
#define SOUNDENGINE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
