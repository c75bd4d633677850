/*
 * What the C API's calls do where it can be heard or read back, on a real
 * sound server (Scripts/test-c-abi runs it inside Scripts/sound-server run,
 * whose server has a speaker and a silent microphone, "mic"). Misuse.c
 * feeds every function bad arguments; this program checks that the calls
 * added for the Swift façade's members (1.1) do what the header says:
 *
 * - a sound from memory plays (the master meter hears it), and loops in
 *   its loop region (its position wraps to the region's start, not to 0);
 * - se_set_voice_low_pass silences a 6 kHz tone at 100 Hz and opening the
 *   filter brings it back; se_seek_voice_fraction moves the voice where
 *   its loop never goes;
 * - SE_VoiceParameters.delay_ms holds a play silent for that long, and
 *   .quality plays;
 * - se_load_bank_with_options lets a bank use a file outside its folder,
 *   which se_load_bank refuses, and its event plays;
 * - se_get_application_state follows the two lifecycle calls;
 * - in playAndRecord: se_get_available_inputs lists the microphone, the
 *   preferred input reads back, se_read_input delivers frames, and the
 *   voiceChat mode asks for echo cancellation;
 * - se_get_output_latency knows the latency once the stream plays;
 * - SE_InitSettings.profiler opens the profiler's socket (0600), which says
 *   hello to a client of the same user, and se_terminate removes it.
 *
 * Every wait polls its condition with a deadline.
 *
 *   features SOUND      (a sound file, for the bank outside its folder)
 */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

enum { RATE = 48000 };
static const double PI = 3.14159265358979323846;

/* The master bus's RMS now (its latest metering window). */
static float master_rms(void) {
    SE_BusMeter meter = {0, 0};
    return se_get_bus_meter(SE_MASTER_BUS, &meter) == SE_Success ? meter.rms : -1;
}

/* One second of mono: half a second of silence, then half a second of a 6 kHz sine at 0.5. */
static float *silence_then_tone(void) {
    static float samples[RATE];
    for (int i = 0; i < RATE; i++) samples[i] = i < RATE / 2 ? 0 : 0.5f * (float)sin(2 * PI * 6000.0 * i / RATE);
    return samples;
}

/* A sound from memory that loops its second half: heard, and its position wraps into the region. */
static uint64_t memory_sound_loops_in_its_region(uint64_t *voice) {
    SE_SoundOptions options;
    OK(se_default_sound_options(&options, sizeof options));
    options.loop_start_frame = RATE / 2; /* the tone; loop_end_frame 0: the end */
    uint64_t sound = 0;
    OK(se_load_sound_from_memory("tone", silence_then_tone(), RATE, 1, RATE, &options, &sound));
    SE_VoiceParameters vp;
    OK(se_default_voice_parameters(&vp, sizeof vp));
    vp.loop = true;
    OK(se_play_sound(sound, SE_MASTER_BUS, &vp, NULL, NULL, voice));
    WAIT_UNTIL(master_rms() > 0.15f, 3); /* the tone, after the half second of silence */
    /* Past its end the position wraps to the loop start (500 ms), never back to the silence. */
    int32_t position = 0, highest = 0;
    double deadline = now() + 3;
    while (now() < deadline) {
        if (se_get_voice_position(*voice, &position) != SE_Success) break;
        if (position < highest) break; /* wrapped */
        highest = position;
        sleep_ms(5);
    }
    TRUE(highest >= 900 && position < highest);
    TRUE(position >= 500);
    printf("features: the memory sound looped from %d ms back to %d ms (its region starts at 500)\n", highest,
           position);
    return sound;
}

/* The low-pass setter: a 6 kHz tone through a 100 Hz low-pass is silence; opening the filter brings it back. */
static void low_pass_filters_the_voice(uint64_t voice) {
    OK(se_set_voice_low_pass(voice, 100, 0));
    WAIT_UNTIL(master_rms() < 0.005f, 3);
    printf("features: 6 kHz through a 100 Hz low-pass: master RMS %.5f\n", master_rms());
    OK(se_set_voice_low_pass(voice, 0, 20));
    WAIT_UNTIL(master_rms() > 0.15f, 3);
    OK(se_set_voice_low_pass(voice, 20000, 0)); /* far above the tone: no change */
    WAIT_UNTIL(master_rms() > 0.15f, 3);
}

/* A seek by fraction: a quarter of the way is 250 ms, in the silence before the loop region, where the
   loop never goes by itself; the voice is silent there until it reaches the tone again. */
static int32_t voice_position(uint64_t voice) {
    int32_t position = -1;
    return se_get_voice_position(voice, &position) == SE_Success ? position : -1;
}
static void seek_by_fraction(uint64_t voice) {
    OK(se_seek_voice_fraction(voice, 0.25f));
    WAIT_UNTIL(voice_position(voice) >= 250 && voice_position(voice) < 500, 2);
    WAIT_UNTIL(master_rms() < 0.01f, 2);
    WAIT_UNTIL(master_rms() > 0.15f, 3);
}

/* delay_ms holds the play silent for that long; quality (sinc) plays. */
static void delay_and_quality(uint64_t sound) {
    WAIT_UNTIL(master_rms() < 0.001f, 3);
    SE_VoiceParameters vp;
    OK(se_default_voice_parameters(&vp, sizeof vp));
    vp.delay_ms = 400;
    vp.quality = SE_ResamplerQualitySinc;
    vp.loop = true;
    uint64_t voice = 0;
    double start = now();
    OK(se_play_sound(sound, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    int32_t position = -1;
    OK(se_get_voice_position(voice, &position));
    TRUE(position == 0); /* waiting */
    /* The sound is half a second of silence first: audible from 400 + 500 ms. */
    double heard = 0;
    while (now() < start + 4) {
        if (master_rms() > 0.1f) {
            heard = now() - start;
            break;
        }
        sleep_ms(5);
    }
    TRUE(heard >= 0.85 && heard < 2.5);
    printf("features: a play delayed by 400 ms (then 500 ms of silence in the sound) was heard after %.0f ms\n",
           heard * 1000);
    OK(se_stop_voice(voice, 0));
    WAIT_UNTIL(!se_is_voice_playing(voice), 3);
}

/* A bank whose sound file is outside its folder: refused by se_load_bank, loaded with the flag, and played. */
static atomic_int outside_ended;
static void on_outside_end(const SE_EventCallbackInfo *info, void *cookie) {
    (void)cookie;
    if (info->type == SE_CallbackEndOfEvent) atomic_store(&outside_ended, 1);
}
static void bank_outside_its_folder(const char *sound_path) {
    char folder[] = "/tmp/soundengine-features.XXXXXX";
    if (mkdtemp(folder) == NULL) {
        TRUE(!"mkdtemp");
        return;
    }
    char absolute[4096], bank[4200];
    if (realpath(sound_path, absolute) == NULL) {
        TRUE(!"realpath of SOUND");
        return;
    }
    snprintf(bank, sizeof bank, "%s/outside.json", folder);
    FILE *file = fopen(bank, "w");
    if (file == NULL) {
        TRUE(!"fopen of the bank");
        return;
    }
    fprintf(file,
            "{\"sounds\": {\"outside_chime\": {\"file\": \"%s\"}},\n"
            " \"events\": {\"Play_Outside\": {\"actions\": [{\"type\": \"play\", \"sound\": \"outside_chime\"}]}}}\n",
            absolute);
    fclose(file);
    uint32_t bank_id = 0, playing = 0;
    EXPECT(SE_InvalidFile, se_load_bank(bank, &bank_id));
    TRUE(strstr(se_last_error_message(), "absolute path") != NULL);
    OK(se_load_bank_with_options(bank, SE_BankLoadAllowFilesOutsideBankFolder, &bank_id));
    OK(se_register_game_object(42, "outside"));
    float loudest = 0;
    OK(se_post_event("Play_Outside", 42, SE_CallbackEndOfEvent, on_outside_end, NULL, &playing));
    for (double until = now() + 5; !atomic_load(&outside_ended) && now() < until; sleep_ms(5))
        loudest = fmaxf(loudest, master_rms());
    TRUE(atomic_load(&outside_ended));
    TRUE(loudest > 0.01f);
    printf("features: the bank's file outside its folder played (master RMS up to %.3f)\n", loudest);
    OK(se_unregister_game_object(42));
    OK(se_unload_bank(bank_id));
    unlink(bank);
    rmdir(folder);
}

static void application_state(void) {
    SE_ApplicationState state = 99;
    OK(se_get_application_state(&state));
    TRUE(state == SE_ApplicationStateForeground);
    OK(se_application_did_enter_background());
    OK(se_get_application_state(&state));
    TRUE(state == SE_ApplicationStateBackground);
    OK(se_application_will_enter_foreground());
    OK(se_get_application_state(&state));
    TRUE(state == SE_ApplicationStateForeground);
}

/* Whether `list` has an input whose uid is `uid`. */
static int lists_input(const SE_Route *list, const char *uid) {
    for (uint32_t i = 0; list != NULL && i < list->input_count; i++)
        if (strcmp(list->inputs[i].uid, uid) == 0) return 1;
    return 0;
}

static int has_input(const char *uid) {
    SE_Route *inputs = NULL;
    if (se_get_available_inputs(&inputs) != SE_Success) return 0;
    int found = lists_input(inputs, uid);
    se_free_route(inputs);
    return found;
}

static void inputs_in_play_and_record(const SE_AudioSessionProperties *ambient) {
    SE_AudioSessionProperties record = *ambient;
    record.category = SE_AudioSessionCategoryPlayAndRecord;
    OK(se_change_audio_session_properties(&record));
    WAIT_UNTIL(has_input("mic"), 3);
    OK(se_set_preferred_input("mic"));
    SE_Route *preferred = NULL;
    OK(se_get_preferred_input(&preferred));
    TRUE(preferred != NULL && preferred->input_count == 1 && lists_input(preferred, "mic") &&
         preferred->inputs[0].type == SE_PortBuiltInMic);
    se_free_route(preferred);
    /* The microphone is silent, but its frames flow: 100 ms of them arrive. */
    float buffer[4096];
    size_t total = 0, frames = 0;
    for (double until = now() + 5; total < RATE / 10 && now() < until; sleep_ms(10)) {
        OK(se_read_input(buffer, sizeof buffer / sizeof buffer[0], &frames));
        total += frames;
    }
    TRUE(total >= RATE / 10);
    printf("features: se_read_input delivered %zu frames from the microphone\n", total);
    /* Voice chat asks for echo cancellation; this plain server cannot give it. */
    record.mode = SE_AudioSessionModeVoiceChat;
    OK(se_change_audio_session_properties(&record));
    SE_AudioSessionStatus status;
    OK(se_get_audio_session_status(&status, sizeof status));
    TRUE(status.properties.mode == SE_AudioSessionModeVoiceChat && status.is_echo_cancellation_requested);
    printf("features: voiceChat asks for echo cancellation; available here: %s\n",
           status.is_echo_cancellation_available ? "yes" : "no");
    OK(se_set_preferred_input(NULL));
    OK(se_get_preferred_input(&preferred));
    TRUE(preferred != NULL && preferred->input_count == 0);
    se_free_route(preferred);
    OK(se_change_audio_session_properties(ambient));
    WAIT_UNTIL(!has_input("mic"), 3); /* ambient records nothing */
}

static void output_latency(void) {
    double latency_ms = -1;
    WAIT_UNTIL(se_get_output_latency(&latency_ms) == SE_Success && latency_ms > 0, 3);
    TRUE(latency_ms < 1000);
    printf("features: output latency %.1f ms\n", latency_ms);
}

/* The profiler link's socket path (docs/profiling.md). */
static void profiler_socket_path(char *path, size_t size) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (runtime != NULL && runtime[0] != '\0')
        snprintf(path, size, "%s/soundengine/%ld.sock", runtime, (long)getpid());
    else
        snprintf(path, size, "/tmp/soundengine-%ld/%ld.sock", (long)geteuid(), (long)getpid());
}

/* settings.profiler = true: the socket is there, 0600, and says hello. */
static void profiler_link_says_hello(void) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    profiler_socket_path(address.sun_path, sizeof address.sun_path);
    struct stat info;
    TRUE(stat(address.sun_path, &info) == 0 && S_ISSOCK(info.st_mode) && (info.st_mode & 0777) == 0600);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    TRUE(fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof address) == 0);
    char line[512] = {0};
    size_t got = 0;
    while (got < sizeof line - 1 && memchr(line, '\n', got) == NULL) {
        ssize_t n = read(fd, line + got, sizeof line - 1 - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    static const char hello[] = "{\"type\":\"hello\"";
    TRUE(strncmp(line, hello, sizeof hello - 1) == 0);
    close(fd);
    printf("features: profiler link at %s\n", address.sun_path);
}

/* After se_terminate the socket is gone. */
static void profiler_link_removed(void) {
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    profiler_socket_path(path, sizeof path);
    struct stat info;
    TRUE(stat(path, &info) != 0);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: features SOUND\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    SE_InitSettings settings;
    SE_PlatformInitSettings platform;
    OK(se_default_init_settings(&settings, sizeof settings));
    OK(se_default_platform_init_settings(&platform, sizeof platform));
    platform.application_name = "features";
    settings.profiler = true;
    platform.audio_session.category = SE_AudioSessionCategoryAmbient;
    if (se_initialize(&settings, &platform) != SE_Success) {
        fprintf(stderr, "features: se_initialize: %s\n", se_last_error_message());
        return 1;
    }
    profiler_link_says_hello();
    uint64_t voice = 0;
    uint64_t sound = memory_sound_loops_in_its_region(&voice);
    output_latency();
    low_pass_filters_the_voice(voice);
    seek_by_fraction(voice);
    OK(se_stop_voice(voice, 0));
    delay_and_quality(sound);
    OK(se_unload_sound(sound));
    bank_outside_its_folder(argv[1]);
    application_state();
    inputs_in_play_and_record(&platform.audio_session);
    se_terminate();
    profiler_link_removed();
    return check_summary("features");
}
