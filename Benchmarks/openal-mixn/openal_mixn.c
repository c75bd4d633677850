// The mix-N workload (../shared/bench/mix-N.md) rendered by OpenAL Soft, so
// mixbench's figures can be set side by side with a peer on the same machine.
// Build and run with Benchmarks/openal-mixn/run (Debian's libopenal-dev).
//
// OpenAL Soft renders through its loopback device (ALC_SOFT_loopback) on the
// calling thread, so the workload's clocks measure exactly its mixer. Each
// voice is a mono float32 buffer of splitmix64 noise, looping, at pitch r_i,
// gain 0.5, placed at azimuth 2θ_i − π/2 (head-relative, no distance model,
// no HRTF): OpenAL's own pan law then stands in for the workload's
// equal-power one, which is why its rms lands near 0.96 · √N/6.
#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { RATE = 48000, SOURCE_FRAMES = 48000 };

static void die(const char *what) {
    fprintf(stderr, "openal-mixn: %s\n", what);
    exit(1);
}

static double seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double process_cpu(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

// One second of the workload's noise for seed `seed`.
static void noise(uint64_t seed, float *out) {
    uint64_t state = seed;
    for (int s = 0; s < SOURCE_FRAMES; s++) {
        state += 0x9E3779B97F4A7C15ull;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        out[s] = (float)((int32_t)(z >> 40) - 8388608) / 8388608.0f;
    }
}

// Selects OpenAL Soft's linear resampler on `source` when the
// AL_SOFT_source_resampler extension is there; returns the name in use.
static const char *use_linear_resampler(ALuint source) {
    if (!alIsExtensionPresent("AL_SOFT_source_resampler")) return "default";
    ALint count = alGetInteger(AL_NUM_RESAMPLERS_SOFT);
    for (ALint i = 0; i < count; i++) {
        const char *name = (const char *)alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT, i);
        if (name && strncmp(name, "Linear", 6) == 0) {
            alSourcei(source, AL_SOURCE_RESAMPLER_SOFT, i);
            return "linear";
        }
    }
    return "default";
}

static void run(int voices, int shared, int total_frames, int block, int json) {
    ALCdevice *device = alcLoopbackOpenDeviceSOFT(NULL);
    if (!device) die("no loopback device (ALC_SOFT_loopback)");
    if (!alcIsRenderFormatSupportedSOFT(device, RATE, ALC_STEREO_SOFT, ALC_FLOAT_SOFT))
        die("the loopback device cannot render 48 kHz stereo float");
    ALCint attributes[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                           ALC_FREQUENCY, RATE, ALC_MONO_SOURCES, voices, ALC_STEREO_SOURCES, 0,
                           ALC_HRTF_SOFT, ALC_FALSE, 0};
    ALCcontext *context = alcCreateContext(device, attributes);
    if (!context || !alcMakeContextCurrent(context)) die("cannot create the context");
    alDistanceModel(AL_NONE);

    int buffer_count = shared > 0 ? shared : voices;
    ALuint *buffers = calloc((size_t)buffer_count, sizeof *buffers);
    ALuint *sources = calloc((size_t)voices, sizeof *sources);
    float *samples = malloc(sizeof(float) * SOURCE_FRAMES);
    if (!buffers || !sources || !samples) die("out of memory");
    alGenBuffers(buffer_count, buffers);
    for (int b = 0; b < buffer_count; b++) {
        noise((uint64_t)b, samples);
        alBufferData(buffers[b], AL_FORMAT_MONO_FLOAT32, samples, (ALsizei)(sizeof(float) * SOURCE_FRAMES), RATE);
    }
    free(samples);
    alGenSources(voices, sources);
    if (alGetError() != AL_NO_ERROR) die("cannot create the buffers or sources (raise ALC_MONO_SOURCES?)");
    const char *resampler = "default";
    for (int i = 0; i < voices; i++) {
        double theta = (M_PI / 2) * (i + 0.5) / voices;
        double azimuth = 2 * theta - M_PI / 2;
        alSourcei(sources[i], AL_BUFFER, (ALint)buffers[shared > 0 ? i % shared : i]);
        alSourcei(sources[i], AL_LOOPING, AL_TRUE);
        alSourcef(sources[i], AL_PITCH, (ALfloat)(0.9 + 0.2 * ((double)i / voices)));
        alSourcef(sources[i], AL_GAIN, 0.5f);
        alSourcei(sources[i], AL_SOURCE_RELATIVE, AL_TRUE);
        alSource3f(sources[i], AL_POSITION, (ALfloat)sin(azimuth), 0.0f, (ALfloat)-cos(azimuth));
        resampler = use_linear_resampler(sources[i]);
    }
    alSourcePlayv(voices, sources);
    if (alGetError() != AL_NO_ERROR) die("cannot start the sources");

    // The device buffer: pre-allocated and pre-faulted.
    float *out = malloc(sizeof(float) * 2 * (size_t)total_frames);
    if (!out) die("out of memory");
    memset(out, 0, sizeof(float) * 2 * (size_t)total_frames);

    double cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID), proc0 = process_cpu(), wall0 = seconds(CLOCK_MONOTONIC);
    for (int done = 0; done < total_frames;) {
        int frames = total_frames - done < block ? total_frames - done : block;
        alcRenderSamplesSOFT(device, out + 2 * (size_t)done, frames);
        done += frames;
    }
    double cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0, proc = process_cpu() - proc0,
           wall = seconds(CLOCK_MONOTONIC) - wall0;

    double sum = 0;
    for (size_t s = 0; s < 2 * (size_t)total_frames; s++) sum += (double)out[s] * out[s];
    double rms = sqrt(sum / (2.0 * total_frames));
    double audio_seconds = (double)total_frames / RATE;
    if (!(rms > 0) || !isfinite(rms)) die("the output is silent or not finite");
    if (json) {
        printf("{\"impl\":\"openal-soft-1.19\",\"n\":%d,\"frames\":%d,\"block\":%d,\"cpu_s\":%.3f,\"proc_cpu_s\":%.3f,"
               "\"wall_s\":%.3f,\"rtf\":%.1f,\"voices_per_core\":%.0f,\"rms\":%.3f,\"resampler\":\"%s\"",
               voices, total_frames, block, cpu, proc, wall, audio_seconds / cpu, voices * audio_seconds / cpu, rms,
               resampler);
        if (shared > 0) printf(",\"shared_sources\":%d", shared);
        printf("}\n");
    } else {
        printf("openal-soft  N=%-5d cpu %.3f s  voices/core %8.0f  rms %.3f (spec %.3f)  resampler %s\n", voices, cpu,
               voices * audio_seconds / cpu, rms, sqrt((double)voices) / 6, resampler);
    }
    fflush(stdout);
    free(out);
    alSourceStopv(voices, sources);
    alDeleteSources(voices, sources);
    alDeleteBuffers(buffer_count, buffers);
    free(sources);
    free(buffers);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
}

int main(int argc, char **argv) {
    int voices[16], count = 0, shared = 0, block = 512, json = 0;
    double audio_seconds = 10;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[a], "--voices") == 0 && a + 1 < argc) {
            for (char *item = strtok(argv[++a], ","); item && count < 16; item = strtok(NULL, ","))
                voices[count++] = atoi(item);
        } else if (strcmp(argv[a], "--seconds") == 0 && a + 1 < argc) {
            audio_seconds = atof(argv[++a]);
        } else if (strcmp(argv[a], "--block") == 0 && a + 1 < argc) {
            block = atoi(argv[++a]);
        } else if (strcmp(argv[a], "--shared-sources") == 0 && a + 1 < argc) {
            shared = atoi(argv[++a]);
        } else {
            fprintf(stderr, "usage: openal-mixn [--voices N[,N...]] [--seconds S] [--block B] [--shared-sources K] [--json]\n");
            return 2;
        }
    }
    if (count == 0) voices[count++] = 1024;
    if (audio_seconds <= 0 || block <= 0 || shared < 0) die("--seconds, --block and --shared-sources must be positive");
    for (int v = 0; v < count; v++) {
        if (voices[v] <= 0) die("--voices must be positive");
        run(voices[v], shared, (int)(audio_seconds * RATE), block, json);
    }
    return 0;
}
