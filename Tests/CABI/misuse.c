/*
 * Feeds every function of sound_engine.h what a buggy game would: NULL,
 * NaN, infinities, times out of range, bad struct sizes, values no enum
 * has, strings that are not UTF-8, handles that name nothing live (an
 * unloaded bank and sound, an unregistered game object, an ended voice, a
 * voice of a terminated engine, a playing ID no posting had), from one
 * thread and from four at once; and the struct sizes of the 1.0 header,
 * which must still be accepted without a byte read or written past them. Each
 * call must return the documented code (SE_InvalidParameter; SE_NotInitialized
 * for valid arguments without an engine; SE_IDNotFound for unknown names)
 * with a message; a posting that has ended is ignored by the calls that act
 * on it and SE_IDNotFound for those that read it (docs/c-api.md, "Handles").
 * The largest times and finite values each function takes
 * must be accepted or refused, never crash. The engine must keep playing
 * through it all, every kind of callback still arriving (background music,
 * end of event, markers, voice end, meter, log).
 *
 *   misuse BANK SOUND      (Scripts/test-c-abi runs it on a private server)
 *
 * Prints one line per failed check and a summary; exits 1 if any check
 * failed. Scripts/test-c-abi also checks that every function of the header
 * is named in this file.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A refusal whose code is the engine's to choose (a file's problems): any failure, with words. */
#define FAILS(call) \
    do { \
        SE_Result result_ = (call); \
        expect_true(result_ != SE_Success && se_last_error_message()[0] != '\0', #call " fails with a message", \
                    __FILE__, __LINE__); \
    } while (0)

static const char bad_utf8[] = "\xff\xfe not UTF-8";
static const int32_t bad_times[] = {-1, INT32_MIN, SE_MAX_DURATION_MS + 1, INT32_MAX};
enum { N_BAD_TIMES = sizeof bad_times / sizeof bad_times[0] };
static const double bad_doubles[] = {NAN, INFINITY, -INFINITY};
enum { N_BAD_DOUBLES = sizeof bad_doubles / sizeof bad_doubles[0] };


enum { EMITTER = 10, UNREGISTERED = 999 };
#define EMITTER_ID ((uint64_t)EMITTER)

/* The callbacks count what they are told; callbacks() checks the counts. */
static atomic_int bgm_calls, bgm_muted, markers, markers_before_end, ends, voice_ends, meter_calls, log_messages;
static atomic_int durations, durations_before_end;
static atomic_uint_fast64_t ended_voice;
static void on_event(const SE_EventCallbackInfo *info, void *cookie) {
    (void)info;
    (void)cookie;
}
/* The playing ID every one of the dialogue's callbacks carried (checked
 * against se_post_event's after the end: the first callback, its duration,
 * can come before se_post_event has stored the ID), and how many did not. */
static atomic_uint dialogue_seen, dialogue_strays;
static void on_dialogue(const SE_EventCallbackInfo *info, void *cookie) {
    (void)cookie;
    unsigned expected = 0;
    if (!atomic_compare_exchange_strong(&dialogue_seen, &expected, info->playing_id) && expected != info->playing_id)
        atomic_fetch_add(&dialogue_strays, 1);
    if (info->game_object != EMITTER_ID) return;
    if (info->type == SE_CallbackMarker && info->marker_name != NULL && info->sound_name != NULL &&
        (strcmp(info->marker_name, "word2") == 0 || strcmp(info->marker_name, "word3") == 0))
        atomic_fetch_add(&markers, 1);
    if (info->type == SE_CallbackDuration && info->sound_name != NULL && info->duration_ms > 0)
        atomic_fetch_add(&durations, 1);
    if (info->type == SE_CallbackEndOfEvent) {
        atomic_store(&durations_before_end, atomic_load(&durations));
        atomic_store(&markers_before_end, atomic_load(&markers));
        atomic_fetch_add(&ends, 1);
    }
}
static void on_voice_end(uint64_t voice, SE_Result result, const char *message, void *cookie) {
    (void)message, (void)cookie;
    if (result == SE_Success) atomic_store(&ended_voice, voice);
    atomic_fetch_add(&voice_ends, 1);
}
static void on_meter(uint32_t bus, const SE_BusMeter *meter, void *cookie) {
    (void)cookie;
    if (bus == SE_MASTER_BUS && meter->peak >= meter->rms) atomic_fetch_add(&meter_calls, 1);
}
static void on_bgm(bool muted, void *cookie) {
    (void)cookie;
    atomic_store(&bgm_muted, muted);
    atomic_fetch_add(&bgm_calls, 1);
}
/* Any thread: counts only. */
static void on_log(SE_LogLevel level, const char *message, void *cookie) {
    (void)cookie;
    if (level <= SE_LogLevelError && message != NULL && message[0] != '\0') atomic_fetch_add(&log_messages, 1);
}

static SE_InitSettings settings;
static SE_PlatformInitSettings platform;
static const SE_Transform good_transform = {{1, 0, 2}, {0, 0, 1}, {0, 1, 0}};

/* Before se_initialize: bad arguments are refused first; good ones need the engine. */
static void before_initialize(const char *bank, const char *sound) {
    INVALID(se_default_init_settings(NULL, sizeof settings));
    INVALID(se_default_init_settings(&settings, 0));
    INVALID(se_default_init_settings(&settings, sizeof settings + 8));
    INVALID(se_default_platform_init_settings(NULL, sizeof platform));
    INVALID(se_default_platform_init_settings(&platform, sizeof platform - 8));
    OK(se_default_init_settings(&settings, sizeof settings));
    OK(se_default_platform_init_settings(&platform, sizeof platform));
    TRUE(settings.struct_size == sizeof settings && platform.struct_size == sizeof platform);
    TRUE(strcmp(se_result_string(SE_InvalidParameter), "SE_InvalidParameter") == 0);
    TRUE(strcmp(se_result_string(12345), "SE_Unknown") == 0);

    /* Every bad settings block: refused, nothing starts. */
    INVALID(se_initialize(NULL, &platform));
    INVALID(se_initialize(&settings, NULL));
    SE_InitSettings s;
    SE_PlatformInitSettings p;
#define BAD_SETTINGS(field, value) \
    (s = settings, s.field = (value), INVALID(se_initialize(&s, &platform)), TRUE(!se_is_initialized()))
#define BAD_PLATFORM(field, value) \
    (p = platform, p.field = (value), INVALID(se_initialize(&settings, &p)), TRUE(!se_is_initialized()))
    BAD_SETTINGS(struct_size, 0);
    BAD_SETTINGS(struct_size, UINT32_MAX);
    BAD_SETTINGS(samples_per_frame, 500);
    BAD_SETTINGS(samples_per_frame, UINT32_MAX);
    BAD_SETTINGS(command_queue_size, 0);
    BAD_SETTINGS(max_voices, 0);
    BAD_SETTINGS(max_audible_voices, settings.max_voices + 1);
    BAD_SETTINGS(max_audible_voices, UINT32_MAX);
    BAD_SETTINGS(max_buses, 5000);
    BAD_SETTINGS(log_level, 99);
    BAD_SETTINGS(profiler_edits, true); /* edits need the link */
    {
        /* A struct from a header before the profiler fields: still taken. */
        SE_InitSettings old;
        size_t old_size = (offsetof(SE_InitSettings, profiler) + 7) & ~(size_t)7;
        OK(se_default_init_settings(&old, old_size));
        TRUE(old.struct_size == old_size);
    }
    BAD_PLATFORM(struct_size, 12);
    BAD_PLATFORM(sample_rate, 0);
    BAD_PLATFORM(sample_rate, UINT32_MAX);
    BAD_PLATFORM(sample_format, 7);
    BAD_PLATFORM(channel_count, 9);
    BAD_PLATFORM(input_channel_count, 99);
    BAD_PLATFORM(audio_session.category, 42);
    BAD_PLATFORM(audio_session.mode, 42);
    BAD_PLATFORM(audio_session.category_options, 0x100);
    BAD_PLATFORM(audio_session.route_sharing_policy, 9);
    BAD_PLATFORM(audio_session.set_active_options, 2);
    BAD_PLATFORM(audio_session.behavior, 0x80000000u);
    BAD_PLATFORM(audio_session.reserved[1], 1);
    BAD_PLATFORM(latency_request_frames, 100);
    BAD_PLATFORM(latency_target_frames, UINT32_MAX);
    BAD_PLATFORM(realtime_priority, -5);
    BAD_PLATFORM(realtime_priority, INT32_MAX);
    BAD_PLATFORM(connect_timeout_ms, 0);
    BAD_PLATFORM(connect_timeout_ms, UINT32_MAX);
    BAD_PLATFORM(idle_cork_timeout_ms, 5);
    BAD_PLATFORM(application_name, NULL);
    BAD_PLATFORM(application_name, "");
    BAD_PLATFORM(application_name, bad_utf8);
    BAD_PLATFORM(server_address, "");
    BAD_PLATFORM(server_address, bad_utf8);
    BAD_PLATFORM(application_id, bad_utf8);
    BAD_PLATFORM(crash_repair_journal_directory, bad_utf8);
    /* A server that is not there: SE_DeviceNotReady, quickly. */
    p = platform;
    p.server_address = "unix:/nonexistent/soundengine-misuse";
    p.connect_timeout_ms = 300;
    EXPECT(SE_DeviceNotReady, se_initialize(&settings, &p));
    TRUE(!se_is_initialized());

    /* No engine: bad arguments are still SE_InvalidParameter, good ones SE_NotInitialized. */
    uint32_t id;
    uint64_t handle;
    double value;
    INVALID(se_load_bank(NULL, &id));
    UNINITIALIZED(se_load_bank(bank, &id));
    UNINITIALIZED(se_unload_bank(1));
    OK(se_get_id_from_string("Play_Footstep", &id)); /* needs no engine */
    INVALID(se_register_game_object(0, NULL));
    UNINITIALIZED(se_register_game_object(EMITTER, "emitter"));
    UNINITIALIZED(se_unregister_game_object(EMITTER));
    INVALID(se_set_position(EMITTER, NULL));
    UNINITIALIZED(se_set_position(EMITTER, &good_transform));
    UNINITIALIZED(se_set_default_listeners(NULL, 0));
    UNINITIALIZED(se_set_game_object_aux_send_values(EMITTER, NULL, 0));
    UNINITIALIZED(se_set_bus_effect(SE_MASTER_BUS, 0, SE_EffectLimiter, NULL, SE_NO_BUS));
    UNINITIALIZED(se_set_bus_effect_parameter(SE_MASTER_BUS, 0, "ceiling", -3, 0));
    INVALID(se_post_event("Play_Footstep", EMITTER, 0, NULL, NULL, NULL));
    UNINITIALIZED(se_post_event("Play_Footstep", EMITTER, 0, NULL, NULL, &id));
    UNINITIALIZED(se_post_event_by_id(id, EMITTER, 0, NULL, NULL, &id));
    INVALID(se_stop_playing_id(1, -1));
    UNINITIALIZED(se_stop_playing_id(1, 0));
    UNINITIALIZED(se_stop_all(0));
    UNINITIALIZED(se_stop_all_on_game_object(EMITTER, 0));
    TRUE(!se_is_playing(1));
    int32_t position_ms;
    INVALID(se_pause_playing_id(0, 0));
    INVALID(se_pause_playing_id(1, -1));
    UNINITIALIZED(se_pause_playing_id(1, 0));
    UNINITIALIZED(se_resume_playing_id(1, 0));
    INVALID(se_seek_on_playing_id(1, -1));
    UNINITIALIZED(se_seek_on_playing_id(1, 0));
    INVALID(se_seek_on_playing_id_fraction(1, NAN));
    UNINITIALIZED(se_seek_on_playing_id_fraction(1, 0.5f));
    INVALID(se_get_source_play_position(1, NULL));
    UNINITIALIZED(se_get_source_play_position(1, &position_ms));
    UNINITIALIZED(se_set_rtpc_value_by_playing_id("RPM", 1000, 1, 0));
    UNINITIALIZED(se_reset_rtpc_value_by_playing_id("RPM", 1));
    UNINITIALIZED(se_get_rtpc_value_by_playing_id("RPM", 1, &value));
    INVALID(se_set_rtpc_value("RPM", NAN, SE_INVALID_GAME_OBJECT, 0));
    UNINITIALIZED(se_set_rtpc_value("RPM", 1000, SE_INVALID_GAME_OBJECT, 0));
    UNINITIALIZED(se_set_rtpc_value_by_id(1, 1000, SE_INVALID_GAME_OBJECT, 0));
    UNINITIALIZED(se_reset_rtpc_value("RPM", SE_INVALID_GAME_OBJECT));
    UNINITIALIZED(se_get_rtpc_value("RPM", SE_INVALID_GAME_OBJECT, &value));
    UNINITIALIZED(se_set_state("PlayerHealth", "low"));
    UNINITIALIZED(se_set_state_by_id(1, 2));
    UNINITIALIZED(se_get_state("PlayerHealth", &id));
    UNINITIALIZED(se_set_switch("Surface", "wood", EMITTER));
    UNINITIALIZED(se_set_switch_by_id(1, 2, EMITTER));
    UNINITIALIZED(se_get_switch("Surface", EMITTER, &id));
    UNINITIALIZED(se_load_sound(sound, false, &handle));
    SE_SoundOptions options;
    INVALID(se_default_sound_options(NULL, sizeof options));
    INVALID(se_default_sound_options(&options, sizeof options + 4));
    OK(se_default_sound_options(&options, sizeof options)); /* needs no engine */
    TRUE(options.struct_size == sizeof options && options.loopable && options.quality == SE_ResamplerQualityDefault);
    options.quality = 99;
    INVALID(se_load_sound_with_options(sound, false, &options, &handle));
    OK(se_default_sound_options(&options, sizeof options));
    UNINITIALIZED(se_load_sound_with_options(sound, false, &options, &handle));
    UNINITIALIZED(se_load_sound_with_options(sound, true, NULL, &handle));
    static const float tone[4] = {0, 0.5f, 0, -0.5f};
    INVALID(se_load_sound_from_memory("tone", NULL, 4, 1, 48000, NULL, &handle));
    INVALID(se_load_sound_from_memory("tone", tone, 4, 0, 48000, NULL, &handle));
    UNINITIALIZED(se_load_sound_from_memory("tone", tone, 4, 1, 48000, NULL, &handle));
    INVALID(se_load_bank_with_options(bank, 0x2, &id));
    UNINITIALIZED(se_load_bank_with_options(bank, SE_BankLoadAllowFilesOutsideBankFolder, &id));
    INVALID(se_set_voice_low_pass(0, 1000, 0));
    INVALID(se_set_voice_low_pass(1, NAN, 0));
    INVALID(se_seek_voice_fraction(1, NAN));
    INVALID(se_seek_voice_fraction(0, 0.5f));
    INVALID(se_unload_sound(0));
    INVALID(se_stop_voice(0, 0));
    UNINITIALIZED(se_stop_all(0));
    UNINITIALIZED(se_suspend(false, 0));
    UNINITIALIZED(se_wakeup_from_suspend());
    UNINITIALIZED(se_application_did_enter_background());
    UNINITIALIZED(se_application_will_enter_foreground());
    INVALID(se_change_audio_session_properties(NULL));
    UNINITIALIZED(se_change_audio_session_properties(&platform.audio_session));
    UNINITIALIZED(se_set_audio_session_active(true, 0));
    UNINITIALIZED(se_override_output_audio_port(SE_AudioSessionPortOverrideNone));
    UNINITIALIZED(se_set_preferred_input(NULL));
    SE_AudioSessionStatus status;
    UNINITIALIZED(se_get_audio_session_status(&status, sizeof status));
    SE_Route *route = (SE_Route *)&status;
    UNINITIALIZED(se_get_current_route(&route));
    TRUE(route == NULL);
    route = (SE_Route *)&status;
    UNINITIALIZED(se_get_output_devices(&route));
    TRUE(route == NULL);
    UNINITIALIZED(se_pin_output(NULL));
    UNINITIALIZED(se_pin_output("speaker"));
    route = (SE_Route *)&status;
    INVALID(se_get_available_inputs(NULL));
    UNINITIALIZED(se_get_available_inputs(&route));
    TRUE(route == NULL);
    route = (SE_Route *)&status;
    INVALID(se_get_preferred_input(NULL));
    UNINITIALIZED(se_get_preferred_input(&route));
    TRUE(route == NULL);
    size_t length;
    char uid[8];
    INVALID(se_get_pinned_output(uid, sizeof uid, NULL));
    INVALID(se_get_pinned_output(NULL, sizeof uid, &length));
    UNINITIALIZED(se_get_pinned_output(NULL, 0, &length));
    UNINITIALIZED(se_get_pinned_output(uid, sizeof uid, &length));
    double latency_ms;
    INVALID(se_get_output_latency(NULL));
    UNINITIALIZED(se_get_output_latency(&latency_ms));
    SE_ApplicationState app_state;
    INVALID(se_get_application_state(NULL));
    UNINITIALIZED(se_get_application_state(&app_state));
    float input[16];
    size_t frames_read;
    INVALID(se_read_input(input, 8, NULL));
    INVALID(se_read_input(NULL, 8, &frames_read));
    UNINITIALIZED(se_read_input(input, 8, &frames_read));
    UNINITIALIZED(se_mute_background_music(true));
    TRUE(!se_is_background_music_muted());
    UNINITIALIZED(se_get_bus_id("master", &id));
    UNINITIALIZED(se_set_bus_volume(SE_MASTER_BUS, 0.5f, 0));
    SE_BusMeter meter;
    UNINITIALIZED(se_get_bus_meter(SE_MASTER_BUS, &meter));
    SE_Statistics statistics;
    UNINITIALIZED(se_get_statistics(&statistics, sizeof statistics));
    TRUE(!se_is_voice_playing(0));
    se_terminate(); /* does nothing */
}

/* The content calls, each fed every kind of bad argument. */
static void content(const char *bank, uint32_t bank_id) {
    uint32_t id, playing;
    double value;
    /* Banks and IDs. */
    INVALID(se_load_bank(NULL, &id));
    INVALID(se_load_bank(bank, NULL));
    INVALID(se_load_bank(bad_utf8, &id));
    FAILS(se_load_bank("/nonexistent/bank.json", &id));
    FAILS(se_load_bank(bank, &id)); /* already loaded: its names are taken */
    INVALID(se_load_bank_with_options(NULL, 0, &id));
    INVALID(se_load_bank_with_options(bad_utf8, 0, &id));
    INVALID(se_load_bank_with_options(bank, 0x2, &id));
    INVALID(se_load_bank_with_options(bank, UINT32_MAX, &id));
    INVALID(se_load_bank_with_options(bank, SE_BankLoadAllowFilesOutsideBankFolder, NULL));
    FAILS(se_load_bank_with_options("/nonexistent/bank.json", SE_BankLoadAllowFilesOutsideBankFolder, &id));
    FAILS(se_load_bank_with_options(bank, SE_BankLoadAllowFilesOutsideBankFolder, &id)); /* already loaded */
    INVALID(se_unload_bank(0x12345678));
    INVALID(se_get_id_from_string(NULL, &id));
    INVALID(se_get_id_from_string("x", NULL));
    INVALID(se_get_id_from_string(bad_utf8, &id));

    /* Game objects. */
    INVALID(se_register_game_object(0, "zero"));
    INVALID(se_register_game_object(SE_INVALID_GAME_OBJECT, "invalid"));
    INVALID(se_register_game_object(11, bad_utf8));
    INVALID(se_unregister_game_object(UNREGISTERED));
    INVALID(se_unregister_game_object(0));
    INVALID(se_set_position(UNREGISTERED, &good_transform));
    INVALID(se_set_position(EMITTER, NULL));
    SE_Transform t = good_transform;
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        t = good_transform, t.position.x = (float)bad_doubles[i];
        INVALID(se_set_position(EMITTER, &t));
        t = good_transform, t.orientation_front.z = (float)bad_doubles[i];
        INVALID(se_set_position(EMITTER, &t));
        t = good_transform, t.orientation_top.y = (float)bad_doubles[i];
        INVALID(se_set_position(EMITTER, &t));
    }
    t = good_transform, t.orientation_front = (SE_Vector3){0, 0, 0};
    INVALID(se_set_position(EMITTER, &t));
    t = good_transform, t.orientation_top = t.orientation_front;
    INVALID(se_set_position(EMITTER, &t));
    OK(se_set_position(EMITTER, &good_transform));
    uint64_t listeners[2] = {EMITTER, UNREGISTERED};
    INVALID(se_set_default_listeners(NULL, 1));
    INVALID(se_set_default_listeners(listeners, 2));
    INVALID(se_set_default_listeners(listeners, 100000));
    listeners[1] = 0;
    INVALID(se_set_default_listeners(listeners, 2));
    /* Aux sends: the demo bank's "reverb" is an aux bus, "music" is not. */
    SE_AuxSend sends[5] = {{"reverb", 0, 0.5f}, {"reverb", 0, 1}, {"reverb", 0, 1}, {"reverb", 0, 1}, {"reverb", 0, 1}};
    OK(se_set_game_object_aux_send_values(EMITTER, sends, 1));
    INVALID(se_set_game_object_aux_send_values(EMITTER, NULL, 1));
    INVALID(se_set_game_object_aux_send_values(EMITTER, sends, 2)); /* the same bus twice */
    INVALID(se_set_game_object_aux_send_values(EMITTER, sends, 5));
    INVALID(se_set_game_object_aux_send_values(0, sends, 1));
    INVALID(se_set_game_object_aux_send_values(UNREGISTERED, sends, 1));
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        SE_AuxSend bad = {"reverb", 0, (float)bad_doubles[i]};
        INVALID(se_set_game_object_aux_send_values(EMITTER, &bad, 1));
    }
    SE_AuxSend odd[] = {{"reverb", 0, 17}, {"music", 0, 1}, {bad_utf8, 0, 1}};
    for (int i = 0; i < 3; i++) INVALID(se_set_game_object_aux_send_values(EMITTER, &odd[i], 1));
    SE_AuxSend nowhere = {"no_such_bus", 0, 1};
    INVALID(se_set_game_object_aux_send_values(EMITTER, &nowhere, 1));
    SE_AuxSend by_id = {NULL, 0, 0.25f};
    OK(se_get_id_from_string("reverb", &by_id.bus_id));
    OK(se_set_game_object_aux_send_values(EMITTER, &by_id, 1));
    OK(se_set_game_object_aux_send_values(EMITTER, NULL, 0));
    /* Bus effects: a slot of the demo bank's sfx bus (its "reverb" bus has a reverb in slot 0). */
    uint32_t sfx = 0, reverb = 0, music = 0;
    OK(se_get_bus_id("sfx", &sfx));
    OK(se_get_bus_id("reverb", &reverb));
    OK(se_get_bus_id("music", &music));
    OK(se_set_bus_effect_parameter(reverb, 0, "wet", 0.8f, 100));
    OK(se_set_bus_effect(sfx, 3, SE_EffectParametricEQ, "band1Type=peak band1Frequency=1000, band1Gain=3;outputGain=-1", SE_NO_BUS));
    OK(se_set_bus_effect(sfx, 2, SE_EffectCompressor, NULL, music));
    OK(se_set_bus_effect_parameter(sfx, 2, "attack", 0.005f, 0));
    INVALID(se_set_bus_effect(sfx, 4, SE_EffectLimiter, NULL, SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, (SE_EffectType)99, NULL, SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, "rt60=1e9", SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, "rt60=nan", SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, "rt6=2", SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, "wet", SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, bad_utf8, SE_NO_BUS));
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectReverb, NULL, music)); /* a sidechain keys a compressor only */
    INVALID(se_set_bus_effect(sfx, 0, SE_EffectCompressor, NULL, sfx)); /* keyed by itself */
    INVALID(se_set_bus_effect(9999, 0, SE_EffectDelay, NULL, SE_NO_BUS));
    INVALID(se_set_bus_effect_parameter(sfx, 2, NULL, 0, 0));
    INVALID(se_set_bus_effect_parameter(sfx, 2, "ratio", 999, 0));
    INVALID(se_set_bus_effect_parameter(sfx, 2, "ratio", NAN, 0));
    INVALID(se_set_bus_effect_parameter(sfx, 2, "ratio", 2, -1));
    INVALID(se_set_bus_effect_parameter(sfx, 2, "rt60", 2, 0));
    INVALID(se_set_bus_effect_parameter(sfx, 1, "ratio", 2, 0));
    OK(se_set_bus_effect(sfx, 2, SE_EffectNone, NULL, SE_NO_BUS));
    OK(se_set_bus_effect(sfx, 3, SE_EffectNone, NULL, SE_NO_BUS));

    /* Events. */
    INVALID(se_post_event(NULL, EMITTER, 0, NULL, NULL, &playing));
    INVALID(se_post_event(bad_utf8, EMITTER, 0, NULL, NULL, &playing));
    INVALID(se_post_event("Play_Footstep", 0, 0, NULL, NULL, &playing));
    INVALID(se_post_event("Play_Footstep", UNREGISTERED, 0, NULL, NULL, &playing));
    INVALID(se_post_event("Play_Footstep", EMITTER, 0x100, on_event, NULL, &playing));
    INVALID(se_post_event("Play_Footstep", EMITTER, 0, NULL, NULL, NULL));
    EXPECT(SE_IDNotFound, se_post_event("No_Such_Event", EMITTER, 0, NULL, NULL, &playing));
    EXPECT(SE_IDNotFound, se_post_event_by_id(0xDEADBEEF, EMITTER, 0, NULL, NULL, &playing));
    OK(se_get_id_from_string("Play_Footstep", &id));
    INVALID(se_post_event_by_id(id, UNREGISTERED, SE_CallbackEndOfEvent, on_event, NULL, &playing));
    OK(se_post_event_by_id(id, EMITTER, SE_CallbackEndOfEvent | SE_CallbackMarker, on_event, NULL, &playing));
    OK(se_post_event("Play_Footstep", EMITTER, SE_CallbackEndOfEvent | SE_CallbackVoiceFailed, on_event, NULL, &playing));
    INVALID(se_stop_playing_id(0, 0));
    for (int i = 0; i < N_BAD_TIMES; i++) {
        INVALID(se_stop_playing_id(playing, bad_times[i]));
        INVALID(se_stop_all(bad_times[i]));
        INVALID(se_stop_all_on_game_object(EMITTER, bad_times[i]));
        INVALID(se_set_rtpc_value("RPM", 1000, EMITTER, bad_times[i]));
        INVALID(se_suspend(false, bad_times[i]));
    }
    /* A suspend's fade is heard before the stream corks: at most 10 s. */
    INVALID(se_suspend(true, 10001));
    OK(se_suspend(true, 50));
    OK(se_wakeup_from_suspend());
    /* An ID no posting of this engine ever had is a made-up handle, for every call that takes one. */
    const uint32_t never = 424242;
    INVALID(se_stop_playing_id(never, 0));
    INVALID(se_pause_playing_id(never, 0));
    INVALID(se_resume_playing_id(never, 0));
    INVALID(se_seek_on_playing_id(never, 0));
    INVALID(se_seek_on_playing_id_fraction(never, 0.5f));
    int32_t never_position;
    INVALID(se_get_source_play_position(never, &never_position));
    INVALID(se_set_rtpc_value_by_playing_id("RPM", 1000, never, 0));
    INVALID(se_reset_rtpc_value_by_playing_id("RPM", never));
    INVALID(se_get_rtpc_value_by_playing_id("RPM", never, &value));
    TRUE(!se_is_playing(never));

    /* Control of one posting. */
    uint32_t engine_loop;
    OK(se_post_event("Play_Engine", EMITTER, SE_CallbackDuration, on_event, NULL, &engine_loop));
    int32_t position_ms = -1;
    for (int i = 0; i < N_BAD_TIMES; i++) {
        INVALID(se_pause_playing_id(engine_loop, bad_times[i]));
        INVALID(se_resume_playing_id(engine_loop, bad_times[i]));
        INVALID(se_seek_on_playing_id(engine_loop, bad_times[i]));
        INVALID(se_set_rtpc_value_by_playing_id("RPM", 1000, engine_loop, bad_times[i]));
    }
    static const float bad_fractions[] = {NAN, INFINITY, -INFINITY, -0.01f, 1.01f, FLT_MAX};
    for (size_t i = 0; i < sizeof bad_fractions / sizeof bad_fractions[0]; i++)
        INVALID(se_seek_on_playing_id_fraction(engine_loop, bad_fractions[i]));
    for (int i = 0; i < N_BAD_DOUBLES; i++) INVALID(se_set_rtpc_value_by_playing_id("RPM", bad_doubles[i], engine_loop, 0));
    INVALID(se_pause_playing_id(0, 0));
    INVALID(se_seek_on_playing_id(0, 0));
    INVALID(se_get_source_play_position(0, &position_ms));
    INVALID(se_get_source_play_position(engine_loop, NULL));
    INVALID(se_set_rtpc_value_by_playing_id(NULL, 1000, engine_loop, 0));
    INVALID(se_set_rtpc_value_by_playing_id(bad_utf8, 1000, engine_loop, 0));
    INVALID(se_set_rtpc_value_by_playing_id("RPM", 1000, 0, 0));
    EXPECT(SE_IDNotFound, se_set_rtpc_value_by_playing_id("No_Such_RTPC", 1000, engine_loop, 0));
    INVALID(se_get_rtpc_value_by_playing_id("RPM", engine_loop, NULL));
    OK(se_pause_playing_id(engine_loop, 10));
    OK(se_seek_on_playing_id(engine_loop, 100));
    OK(se_seek_on_playing_id_fraction(engine_loop, 0.5f));
    OK(se_resume_playing_id(engine_loop, 10));
    OK(se_set_rtpc_value_by_playing_id("RPM", 1e300, engine_loop, 0)); /* finite: clamped */
    OK(se_get_rtpc_value_by_playing_id("RPM", engine_loop, &value));
    TRUE(value == 8000);
    OK(se_reset_rtpc_value_by_playing_id("RPM", engine_loop));
    OK(se_get_source_play_position(engine_loop, &position_ms));
    TRUE(position_ms >= 0);
    OK(se_stop_playing_id(engine_loop, 0));
    double until = now() + 5;
    while (se_is_playing(engine_loop) && now() < until) sleep_ms(5);
    TRUE(!se_is_playing(engine_loop));
    /* Ended (as a posting can, on its own, at any moment): the calls that act on it do nothing and
       succeed, as in Wwise; the calls that read it say it is gone (docs/c-api.md, "Handles"). Bad
       arguments beside it are still refused. */
    OK(se_stop_playing_id(engine_loop, 0));
    OK(se_pause_playing_id(engine_loop, 0));
    OK(se_resume_playing_id(engine_loop, 0));
    OK(se_seek_on_playing_id(engine_loop, 0));
    OK(se_seek_on_playing_id_fraction(engine_loop, 0.5f));
    OK(se_set_rtpc_value_by_playing_id("RPM", 1000, engine_loop, 0));
    OK(se_reset_rtpc_value_by_playing_id("RPM", engine_loop));
    INVALID(se_stop_playing_id(engine_loop, -1));
    INVALID(se_set_rtpc_value_by_playing_id("RPM", NAN, engine_loop, 0));
    EXPECT(SE_IDNotFound, se_get_source_play_position(engine_loop, &position_ms));
    EXPECT(SE_IDNotFound, se_get_rtpc_value_by_playing_id("RPM", engine_loop, &value));
    INVALID(se_stop_all_on_game_object(UNREGISTERED, 0));
    INVALID(se_stop_all_on_game_object(0, 0));
    TRUE(!se_is_playing(0));

    /* RTPCs. */
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        INVALID(se_set_rtpc_value("RPM", bad_doubles[i], EMITTER, 0));
        INVALID(se_set_rtpc_value_by_id(1, bad_doubles[i], SE_INVALID_GAME_OBJECT, 0));
    }
    INVALID(se_set_rtpc_value(NULL, 1000, EMITTER, 0));
    INVALID(se_set_rtpc_value(bad_utf8, 1000, EMITTER, 0));
    INVALID(se_set_rtpc_value("RPM", 1000, UNREGISTERED, 0));
    INVALID(se_set_rtpc_value("RPM", 1000, 0, 0));
    EXPECT(SE_IDNotFound, se_set_rtpc_value("No_Such_RTPC", 1000, EMITTER, 0));
    uint32_t rpm;
    OK(se_get_id_from_string("RPM", &rpm));
    INVALID(se_set_rtpc_value_by_id(rpm, 1000, UNREGISTERED, 0));
    INVALID(se_set_rtpc_value_by_id(rpm, 1000, EMITTER, -1));
    EXPECT(SE_IDNotFound, se_set_rtpc_value_by_id(1, 1000, EMITTER, 0));
    INVALID(se_reset_rtpc_value(NULL, EMITTER));
    INVALID(se_reset_rtpc_value("RPM", UNREGISTERED));
    INVALID(se_get_rtpc_value(NULL, EMITTER, &value));
    INVALID(se_get_rtpc_value("RPM", UNREGISTERED, &value));
    INVALID(se_get_rtpc_value("RPM", EMITTER, NULL));
    OK(se_set_rtpc_value("RPM", 1e300, EMITTER, 0)); /* finite: clamped to the RTPC's range */
    OK(se_get_rtpc_value("RPM", EMITTER, &value));
    TRUE(value == 8000);
    OK(se_reset_rtpc_value("RPM", EMITTER));

    /* States and switches. */
    INVALID(se_set_state(NULL, "low"));
    INVALID(se_set_state("PlayerHealth", NULL));
    INVALID(se_set_state(bad_utf8, "low"));
    EXPECT(SE_IDNotFound, se_set_state("PlayerHealth", "dead"));
    EXPECT(SE_IDNotFound, se_set_state_by_id(1, 2));
    INVALID(se_get_state(NULL, &id));
    INVALID(se_get_state("PlayerHealth", NULL));
    INVALID(se_set_switch(NULL, "wood", EMITTER));
    INVALID(se_set_switch("Surface", bad_utf8, EMITTER));
    INVALID(se_set_switch("Surface", "wood", UNREGISTERED));
    INVALID(se_set_switch("Surface", "wood", 0));
    EXPECT(SE_IDNotFound, se_set_switch("Surface", "lava", EMITTER));
    uint32_t surface, gravel;
    OK(se_get_id_from_string("Surface", &surface));
    OK(se_get_id_from_string("gravel", &gravel));
    INVALID(se_set_switch_by_id(surface, gravel, UNREGISTERED));
    EXPECT(SE_IDNotFound, se_set_switch_by_id(surface, 2, EMITTER));
    OK(se_set_switch_by_id(surface, gravel, EMITTER));
    INVALID(se_get_switch(NULL, EMITTER, &id));
    INVALID(se_get_switch("Surface", UNREGISTERED, &id));
    INVALID(se_get_switch("Surface", EMITTER, NULL));
    uint32_t wood;
    OK(se_get_id_from_string("wood", &wood));
    OK(se_set_switch("Surface", "wood", EMITTER));
    OK(se_get_switch("Surface", EMITTER, &id));
    TRUE(id == wood);
    (void)bank_id;
}

/* The canary old-size checks fill a struct and what follows it with. */
enum { CANARY = 0xA5 };

/* Whether bytes [from, to) of `memory` still hold CANARY: nothing was written past an old struct. */
static int untouched(const void *memory, size_t from, size_t to) {
    for (size_t i = from; i < to; i++)
        if (((const unsigned char *)memory)[i] != CANARY) return 0;
    return 1;
}

/* SE_VoiceParameters as the 1.0 header declared it, frozen here (the header's own grows): a program
   built against it keeps working. */
typedef struct VoiceParameters_1_0 {
    uint32_t struct_size;
    float volume;
    float pan;
    double pitch;
    bool loop;
    int32_t fade_in_ms;
    float low_pass_hz;
    int32_t priority;
    SE_VirtualBehavior virtual_behavior;
} VoiceParameters_1_0;

static void old_voice_parameters(uint64_t sound) {
    /* The library writes and reads the 1.0 struct's fields only: the bytes after it stay as they were. */
    struct {
        VoiceParameters_1_0 parameters;
        unsigned char after[16];
    } old;
    memset(&old, CANARY, sizeof old);
    OK(se_default_voice_parameters((SE_VoiceParameters *)&old.parameters, sizeof old.parameters));
    TRUE(old.parameters.struct_size == sizeof old.parameters && old.parameters.volume == 1 &&
         old.parameters.virtual_behavior == SE_VirtualBehaviorKill);
    TRUE(untouched(&old, offsetof(VoiceParameters_1_0, virtual_behavior) + sizeof(SE_VirtualBehavior), sizeof old));
    old.parameters.volume = 0.01f;
    uint64_t voice;
    OK(se_play_sound(sound, SE_MASTER_BUS, (const SE_VoiceParameters *)&old.parameters, NULL, NULL, &voice));
    OK(se_stop_voice(voice, 0));
    old.parameters.pitch = NAN;
    INVALID(se_play_sound(sound, SE_MASTER_BUS, (const SE_VoiceParameters *)&old.parameters, NULL, NULL, &voice));
}

/* SE_AudioSessionStatus as the 1.0 header declared it (without the echo-cancellation fields), frozen here. */
typedef struct AudioSessionStatus_1_0 {
    uint32_t struct_size;
    SE_AudioSessionProperties properties;
    bool is_active, is_interrupted, is_other_audio_playing, secondary_audio_should_be_silenced_hint;
    bool is_input_available, is_input_muted;
    SE_AudioSessionPortOverride output_port_override;
    SE_EngineState engine_state;
    SE_PauseReason pause_reason;
} AudioSessionStatus_1_0;

static void old_session_status(void) {
    struct {
        AudioSessionStatus_1_0 status;
        unsigned char after[16];
    } old;
    memset(&old, CANARY, sizeof old);
    OK(se_get_audio_session_status((SE_AudioSessionStatus *)&old.status, sizeof old.status));
    TRUE(old.status.struct_size == sizeof old.status && old.status.is_active &&
         old.status.engine_state == SE_EngineStateRunning);
    TRUE(untouched(&old, sizeof old.status, sizeof old));
    INVALID(se_get_audio_session_status((SE_AudioSessionStatus *)&old.status, sizeof old.status - 4));
}

/* Loading with options, from a file and from memory: every bad field refused, the good ones loaded. */
static void sound_options(const char *sound_path, uint64_t sound) {
    SE_SoundOptions o, bad;
    uint64_t loaded, voice;
    OK(se_default_sound_options(&o, sizeof o));
    INVALID(se_default_sound_options(&o, 3));
#define BAD_OPTIONS(field, value, streaming) \
    (bad = o, bad.field = (value), INVALID(se_load_sound_with_options(sound_path, (streaming), &bad, &loaded)))
    BAD_OPTIONS(struct_size, 0, false);
    BAD_OPTIONS(struct_size, UINT32_MAX, false);
    BAD_OPTIONS(quality, 4, false);
    BAD_OPTIONS(quality, UINT32_MAX, true);
    BAD_OPTIONS(loop_end_frame, UINT32_MAX, false);   /* not inside the sound */
    BAD_OPTIONS(loop_start_frame, UINT32_MAX, false); /* after its end */
    BAD_OPTIONS(loop_end_frame, 32, false);           /* an inner region of 32 frames: under 64 */
    BAD_OPTIONS(loop_end_frame, 4800, true);          /* a stream loops whole */
    BAD_OPTIONS(loopable, false, true);
    bad = o, bad.loopable = false, bad.loop_end_frame = 4800;
    INVALID(se_load_sound_with_options(sound_path, false, &bad, &loaded));
    INVALID(se_load_sound_with_options(NULL, false, &o, &loaded));
    INVALID(se_load_sound_with_options(sound_path, false, &o, NULL));
    EXPECT(SE_FileNotFound, se_load_sound_with_options("/nonexistent/sound.ogg", false, &o, &loaded));
    /* A sound that cannot loop: a looping play of it is refused. */
    o.loopable = false;
    o.quality = SE_ResamplerQualitySinc;
    OK(se_load_sound_with_options(sound_path, false, &o, &loaded));
    SE_VoiceParameters vp;
    OK(se_default_voice_parameters(&vp, sizeof vp));
    vp.loop = true;
    INVALID(se_play_sound(loaded, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    vp.loop = false;
    vp.volume = 0.01f;
    vp.quality = SE_ResamplerQualityCubic;
    vp.delay_ms = 20;
    OK(se_play_sound(loaded, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    OK(se_unload_sound(loaded));
    OK(se_default_sound_options(&o, sizeof o));
    o.loop_start_frame = 1000, o.loop_end_frame = 2000;
    OK(se_load_sound_with_options(sound_path, false, &o, &loaded));
    OK(se_unload_sound(loaded));
    OK(se_load_sound_with_options(sound_path, true, NULL, &loaded));
    OK(se_unload_sound(loaded));
    (void)sound;

    /* From memory. */
    enum { FRAMES = 480 };
    static float samples[FRAMES * 2];
    for (int i = 0; i < FRAMES * 2; i++) samples[i] = (i / 2 % 48 < 24) ? 0.25f : -0.25f;
    OK(se_default_sound_options(&o, sizeof o));
    INVALID(se_load_sound_from_memory(NULL, samples, FRAMES, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory(bad_utf8, samples, FRAMES, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", NULL, FRAMES, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 48000, NULL, NULL));
    INVALID(se_load_sound_from_memory("square", samples, 0, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, SIZE_MAX, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, (size_t)INT32_MAX, 2, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 0, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 1025, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, UINT32_MAX, 48000, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 999, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 768001, NULL, &loaded));
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, UINT32_MAX, NULL, &loaded));
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        float saved = samples[77];
        samples[77] = (float)bad_doubles[i];
        INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 48000, NULL, &loaded));
        samples[77] = saved;
    }
    bad = o, bad.loop_end_frame = FRAMES + 1;
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 48000, &bad, &loaded));
    bad = o, bad.struct_size = 1;
    INVALID(se_load_sound_from_memory("square", samples, FRAMES, 2, 48000, &bad, &loaded));
    o.loop_start_frame = 96, o.loop_end_frame = 480;
    OK(se_load_sound_from_memory("square", samples, FRAMES, 2, 48000, &o, &loaded));
    vp.loop = true;
    vp.delay_ms = 0;
    OK(se_play_sound(loaded, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    OK(se_unload_sound(loaded)); /* its voice fades out and ends */
    OK(se_load_sound_from_memory("mono", samples, FRAMES * 2, 1, 8000, NULL, &loaded));
    OK(se_unload_sound(loaded));
}

/* Sounds, voices, buses, the session, statistics. */
static void playback(const char *sound_path) {
    uint64_t sound, voice;
    SE_VoiceParameters vp, bad;
    INVALID(se_default_voice_parameters(NULL, sizeof vp));
    INVALID(se_default_voice_parameters(&vp, 1));
    OK(se_default_voice_parameters(&vp, sizeof vp));
    INVALID(se_load_sound(NULL, false, &sound));
    INVALID(se_load_sound(bad_utf8, false, &sound));
    INVALID(se_load_sound(sound_path, false, NULL));
    EXPECT(SE_FileNotFound, se_load_sound("/nonexistent/sound.ogg", false, &sound));
    OK(se_load_sound(sound_path, false, &sound));
    INVALID(se_unload_sound(0));
    INVALID(se_unload_sound((uint64_t)77 << 49 | (uint64_t)1 << 32 | 1)); /* another engine's (epoch 77) */
    INVALID(se_play_sound(0, SE_MASTER_BUS, NULL, NULL, NULL, &voice));
    INVALID(se_play_sound(sound, SE_MASTER_BUS, NULL, NULL, NULL, NULL));
    INVALID(se_play_sound(sound, 9999, NULL, NULL, NULL, &voice));
#define BAD_VOICE(field, value) \
    (bad = vp, bad.field = (value), INVALID(se_play_sound(sound, SE_MASTER_BUS, &bad, NULL, NULL, &voice)))
    BAD_VOICE(struct_size, 0);
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        BAD_VOICE(volume, (float)bad_doubles[i]);
        BAD_VOICE(pan, (float)bad_doubles[i]);
        BAD_VOICE(pitch, bad_doubles[i]);
        BAD_VOICE(low_pass_hz, (float)bad_doubles[i]);
    }
    BAD_VOICE(volume, 17);
    BAD_VOICE(volume, -1);
    BAD_VOICE(pan, 1.5f);
    BAD_VOICE(pitch, 0);
    BAD_VOICE(pitch, 1e300);
    BAD_VOICE(low_pass_hz, 5);
    BAD_VOICE(priority, -1);
    BAD_VOICE(priority, 101);
    BAD_VOICE(priority, INT32_MIN);
    BAD_VOICE(virtual_behavior, 3);
    BAD_VOICE(virtual_behavior, UINT32_MAX);
    for (int i = 0; i < N_BAD_TIMES; i++) BAD_VOICE(fade_in_ms, bad_times[i]);
    for (int i = 0; i < N_BAD_TIMES; i++) BAD_VOICE(delay_ms, bad_times[i]);
    BAD_VOICE(quality, 4);
    BAD_VOICE(quality, UINT32_MAX);
    BAD_VOICE(struct_size, sizeof vp - 4);
    BAD_VOICE(struct_size, sizeof vp + 8);
    old_voice_parameters(sound);
    vp.loop = true;
    vp.volume = 0.25f;
    OK(se_play_sound(sound, SE_MASTER_BUS, &vp, on_voice_end, NULL, &voice));
    TRUE(se_is_voice_playing(voice));
    INVALID(se_stop_voice(0, 0));
    for (int i = 0; i < N_BAD_TIMES; i++) {
        INVALID(se_stop_voice(voice, bad_times[i]));
        INVALID(se_pause_voice(voice, bad_times[i]));
        INVALID(se_resume_voice(voice, bad_times[i]));
        INVALID(se_set_voice_volume(voice, 0.5f, bad_times[i]));
        INVALID(se_set_voice_pan(voice, 0, bad_times[i]));
        INVALID(se_set_bus_volume(SE_MASTER_BUS, 1, bad_times[i]));
        INVALID(se_set_bus_mute(SE_MASTER_BUS, false, bad_times[i]));
    }
    for (int i = 0; i < N_BAD_DOUBLES; i++) {
        INVALID(se_set_voice_volume(voice, (float)bad_doubles[i], 0));
        INVALID(se_set_voice_pan(voice, (float)bad_doubles[i], 0));
        INVALID(se_set_voice_pitch(voice, bad_doubles[i]));
        INVALID(se_set_bus_volume(SE_MASTER_BUS, (float)bad_doubles[i], 0));
    }
    INVALID(se_set_voice_volume(voice, 100, 0));
    INVALID(se_set_voice_pan(voice, -2, 0));
    INVALID(se_set_voice_pitch(voice, 0));
    INVALID(se_set_voice_pitch(voice, -1));
    for (int i = 0; i < N_BAD_TIMES; i++) INVALID(se_set_voice_low_pass(voice, 1000, bad_times[i]));
    for (int i = 0; i < N_BAD_DOUBLES; i++) INVALID(se_set_voice_low_pass(voice, (float)bad_doubles[i], 0));
    INVALID(se_set_voice_low_pass(voice, 5, 0));
    INVALID(se_set_voice_low_pass(voice, 30000, 0));
    INVALID(se_set_voice_low_pass(voice, -1000, 0));
    OK(se_set_voice_low_pass(voice, 2000, 10));
    OK(se_set_voice_low_pass(voice, 0, 10)); /* open again */
    OK(se_pause_voice(voice, 10));
    OK(se_resume_voice(voice, 10));
    for (int i = 0; i < N_BAD_TIMES; i++) INVALID(se_seek_voice(voice, bad_times[i]));
    int32_t voice_position = -1;
    INVALID(se_get_voice_position(voice, NULL));
    OK(se_seek_voice(voice, 20));
    static const float bad_voice_fractions[] = {NAN, INFINITY, -INFINITY, -0.01f, 1.01f, -FLT_MAX};
    for (size_t i = 0; i < sizeof bad_voice_fractions / sizeof bad_voice_fractions[0]; i++)
        INVALID(se_seek_voice_fraction(voice, bad_voice_fractions[i]));
    INVALID(se_seek_voice_fraction(0, 0.5f));
    OK(se_seek_voice_fraction(voice, 0.5f));
    OK(se_get_voice_position(voice, &voice_position));
    TRUE(voice_position >= 0);
    OK(se_stop_voice(voice, 0));
    double deadline = now() + 5;
    while (se_is_voice_playing(voice) && now() < deadline) sleep_ms(5);
    TRUE(!se_is_voice_playing(voice));
    /* The voice ended: its handle is stale. */
    INVALID(se_stop_voice(voice, 0));
    INVALID(se_pause_voice(voice, 0));
    INVALID(se_seek_voice(voice, 0));
    INVALID(se_get_voice_position(voice, &voice_position));
    INVALID(se_set_voice_volume(voice, 1, 0));
    INVALID(se_set_voice_pitch(voice, 1));
    INVALID(se_set_voice_low_pass(voice, 1000, 0));
    INVALID(se_seek_voice_fraction(voice, 0.5f));
    sound_options(sound_path, sound);
    OK(se_unload_sound(sound));
    /* So is the unloaded sound's. */
    INVALID(se_unload_sound(sound));
    INVALID(se_play_sound(sound, SE_MASTER_BUS, NULL, NULL, NULL, &voice));

    /* Buses. */
    uint32_t bus;
    INVALID(se_get_bus_id(NULL, &bus));
    INVALID(se_get_bus_id("master", NULL));
    INVALID(se_get_bus_id(bad_utf8, &bus));
    EXPECT(SE_IDNotFound, se_get_bus_id("No_Such_Bus", &bus));
    OK(se_get_bus_id("music", &bus));
    INVALID(se_create_bus(NULL, SE_MASTER_BUS, &bus));
    INVALID(se_create_bus("misuse", 9999, &bus));
    INVALID(se_create_bus("misuse", SE_MASTER_BUS, NULL));
    INVALID(se_set_bus_volume(9999, 1, 0));
    INVALID(se_set_bus_volume(SE_MASTER_BUS, 17, 0));
    INVALID(se_set_bus_mute(9999, true, 0));
    INVALID(se_set_bus_mute_for_background_music(9999, true));
    SE_BusMeter meter;
    INVALID(se_get_bus_meter(9999, &meter));
    INVALID(se_get_bus_meter(UINT32_MAX, &meter));
    INVALID(se_get_bus_meter(SE_MASTER_BUS, NULL));
    INVALID(se_set_bus_meter_callback(9999, on_meter, NULL));
    OK(se_set_bus_meter_callback(bus, on_meter, NULL));
    OK(se_set_bus_meter_callback(bus, NULL, NULL));
    OK(se_mute_background_music(false));
    TRUE(!se_is_background_music_muted());

    /* The session. */
    SE_AudioSessionProperties props = platform.audio_session, p;
#define BAD_SESSION(field, value) \
    (p = props, p.field = (value), INVALID(se_change_audio_session_properties(&p)))
    INVALID(se_change_audio_session_properties(NULL));
    BAD_SESSION(category, 42);
    BAD_SESSION(mode, UINT32_MAX);
    BAD_SESSION(category_options, 0x100);
    BAD_SESSION(reserved[0], 7);
    /* A combination iOS refuses: defaultToSpeaker outside playAndRecord. */
    p = props, p.category_options = SE_AudioSessionCategoryOptionDefaultToSpeaker;
    SE_Result refused = se_change_audio_session_properties(&p);
    TRUE(refused != SE_Success && se_last_error_message()[0] != '\0');
    INVALID(se_set_audio_session_active(true, 0x80));
    INVALID(se_override_output_audio_port(12345));
    EXPECT(SE_Fail, se_override_output_audio_port(SE_AudioSessionPortOverrideSpeaker)); /* ambient: '!cat' */
    TRUE(se_last_error_session_code() == 560161140);
    INVALID(se_set_preferred_input(bad_utf8));
    INVALID(se_set_preferred_input("no-such-input"));
    SE_AudioSessionStatus status;
    INVALID(se_get_audio_session_status(NULL, sizeof status));
    INVALID(se_get_audio_session_status(&status, 3));
    OK(se_get_audio_session_status(&status, sizeof status));
    TRUE(status.properties.category == SE_AudioSessionCategoryAmbient && status.is_active);
    TRUE(!status.is_echo_cancellation_requested);
    old_session_status();
    /* Inputs: ambient records nothing, so lists none and prefers none. */
    INVALID(se_get_available_inputs(NULL));
    SE_Route *inputs = NULL;
    OK(se_get_available_inputs(&inputs));
    TRUE(inputs != NULL && inputs->input_count == 0 && inputs->output_count == 0);
    se_free_route(inputs);
    INVALID(se_get_preferred_input(NULL));
    OK(se_get_preferred_input(&inputs));
    TRUE(inputs != NULL && inputs->input_count == 0);
    se_free_route(inputs);
    double latency_ms;
    INVALID(se_get_output_latency(NULL));
    OK(se_get_output_latency(&latency_ms));
    TRUE(latency_ms == -1 || latency_ms >= 0); /* its value: features.c (under valgrind it can be anything) */
    if (latency_ms > 1000) printf("misuse: output latency %.0f ms\n", latency_ms);
    SE_ApplicationState app_state = 99;
    INVALID(se_get_application_state(NULL));
    OK(se_get_application_state(&app_state));
    TRUE(app_state == SE_ApplicationStateForeground);
    float input[64];
    size_t frames_read = 99;
    INVALID(se_read_input(NULL, 16, &frames_read));
    INVALID(se_read_input(input, 16, NULL));
    INVALID(se_read_input(input, SIZE_MAX, &frames_read));
    OK(se_read_input(NULL, 0, &frames_read));
    TRUE(frames_read == 0);
    OK(se_read_input(input, 16, &frames_read)); /* ambient: nothing is captured */
    TRUE(frames_read == 0);
    INVALID(se_get_current_route(NULL));
    SE_Route *route = NULL;
    OK(se_get_current_route(&route));
    TRUE(route != NULL && route->output_count >= 1 && route->outputs[0].uid[0] != '\0');
    se_free_route(route);
    se_free_route(NULL);
    /* The settings menu's output list, and a pin. */
    INVALID(se_get_output_devices(NULL));
    OK(se_get_output_devices(&route));
    TRUE(route != NULL && route->input_count == 0 && route->output_count >= 1);
    const char *first_output = NULL;
    for (uint32_t i = 0; route != NULL && i < route->output_count; i++)
        if (route->outputs[i].uid[0] != '\0' && route->outputs[i].name[0] != '\0') first_output = route->outputs[i].uid;
    TRUE(first_output != NULL);
    INVALID(se_pin_output(bad_utf8));
    INVALID(se_pin_output("no-such-output"));
    INVALID(se_pin_output("mic")); /* an input */
    size_t length = 99;
    char uid[256];
    INVALID(se_get_pinned_output(uid, sizeof uid, NULL));
    INVALID(se_get_pinned_output(NULL, 1, &length));
    OK(se_get_pinned_output(NULL, 0, &length));
    TRUE(length == 0); /* nothing pinned yet */
    OK(se_get_pinned_output(uid, 1, &length));
    TRUE(length == 0 && uid[0] == '\0');
    if (first_output != NULL) {
        OK(se_pin_output(first_output));
        OK(se_get_pinned_output(NULL, 0, &length));
        TRUE(length == strlen(first_output));
        memset(uid, 'x', sizeof uid);
        INVALID(se_get_pinned_output(uid, length, &length)); /* no room for the terminator */
        TRUE(length == strlen(first_output) && uid[0] == 'x');
        OK(se_get_pinned_output(uid, sizeof uid, &length));
        TRUE(strcmp(uid, first_output) == 0 && uid[length + 1] == 'x');
    }
    se_free_route(route);
    OK(se_pin_output(NULL));
    OK(se_get_pinned_output(uid, sizeof uid, &length));
    TRUE(length == 0 && uid[0] == '\0');
    SE_Statistics statistics;
    INVALID(se_get_statistics(NULL, sizeof statistics));
    INVALID(se_get_statistics(&statistics, sizeof statistics - 1));
    EXPECT(SE_AlreadyInitialized, se_initialize(&settings, &platform));
}

/* Four threads at once, each mixing good calls and every kind of bad one. */
static void *hammer(void *arg) {
    uint64_t object = 100 + (uint64_t)(uintptr_t)arg;
    OK(se_register_game_object(object, "hammer"));
    for (int i = 0; i < 300; i++) {
        uint32_t playing;
        SE_Transform t = good_transform;
        t.position.x = (float)(i % 17);
        OK(se_set_position(object, &t));
        INVALID(se_set_position(object, NULL));
        INVALID(se_set_rtpc_value("RPM", NAN, object, 0));
        INVALID(se_stop_all_on_game_object(object, -1));
        INVALID(se_post_event("Play_UI_Click", object + 1000, 0, NULL, NULL, &playing));
        if (i % 50 == 0) OK(se_post_event("Play_UI_Click", object, SE_CallbackEndOfEvent, on_event, NULL, &playing));
        EXPECT(SE_IDNotFound, se_set_state("PlayerHealth", "nope"));
        if (i % 10 == 0) { /* the 1.1 readers and checks, from every thread at once */
            SE_Route *inputs = NULL;
            OK(se_get_available_inputs(&inputs));
            se_free_route(inputs);
            size_t length;
            OK(se_get_pinned_output(NULL, 0, &length));
            SE_ApplicationState state;
            OK(se_get_application_state(&state));
            double latency_ms;
            OK(se_get_output_latency(&latency_ms));
            INVALID(se_set_voice_low_pass(0, 1000, 0));
            INVALID(se_seek_voice_fraction(0, NAN));
            INVALID(se_stop_playing_id(UINT32_MAX, 0)); /* no posting had it */
            SE_VoiceParameters vp;
            INVALID(se_default_voice_parameters(&vp, 40));
        }
    }
    OK(se_unregister_game_object(object));
    return NULL;
}

/* A value at the edge of what is allowed: accepted, or refused as a bad argument, never a crash. */
#define EDGE(call) \
    do { \
        SE_Result result_ = (call); \
        expect_true(result_ == SE_Success || result_ == SE_InvalidParameter, #call " is accepted or refused", \
                    __FILE__, __LINE__); \
    } while (0)

/* The largest times and finite values every function takes: the engine converts them (to frames,
   durations, distances) without trapping, and keeps playing. */
static void edges(const char *sound_path) {
    enum { FAR = 11 };
    uint32_t playing;
    uint64_t sound, voice;
    SE_VoiceParameters vp;
    OK(se_register_game_object(FAR, "far"));
    SE_Transform t = {{FLT_MAX, -FLT_MAX, FLT_MAX}, {FLT_MAX, 0, 0}, {0, FLT_MAX, 0}};
    EDGE(se_set_position(FAR, &t));
    t = (SE_Transform){{FLT_MIN, 0, 0}, {FLT_MIN, 0, 0}, {0, FLT_MIN, 0}};
    EDGE(se_set_position(FAR, &t));
    OK(se_post_event("Play_Emitter", FAR, 0, NULL, NULL, &playing));
    EDGE(se_set_rtpc_value("RPM", DBL_MAX, FAR, SE_MAX_DURATION_MS));
    EDGE(se_set_rtpc_value("RPM", -DBL_MAX, SE_INVALID_GAME_OBJECT, SE_MAX_DURATION_MS));
    EDGE(se_set_rtpc_value("RPM", DBL_MIN, FAR, 1));
    OK(se_reset_rtpc_value("RPM", SE_INVALID_GAME_OBJECT));
    EDGE(se_stop_all_on_game_object(FAR, SE_MAX_DURATION_MS));
    EDGE(se_seek_on_playing_id(playing, SE_MAX_DURATION_MS));
    EDGE(se_seek_on_playing_id_fraction(playing, 1));
    EDGE(se_seek_on_playing_id_fraction(playing, FLT_MIN));
    EDGE(se_pause_playing_id(playing, SE_MAX_DURATION_MS));
    EDGE(se_resume_playing_id(playing, SE_MAX_DURATION_MS));
    EDGE(se_set_rtpc_value_by_playing_id("RPM", DBL_MAX, playing, SE_MAX_DURATION_MS));
    EDGE(se_set_rtpc_value_by_playing_id("RPM", -DBL_MAX, playing, 1));
    EDGE(se_stop_playing_id(playing, SE_MAX_DURATION_MS));
    OK(se_default_voice_parameters(&vp, sizeof vp));
    vp.fade_in_ms = SE_MAX_DURATION_MS;
    vp.pitch = 16;
    vp.low_pass_hz = 24000;
    OK(se_load_sound(sound_path, false, &sound));
    EDGE(se_play_sound(sound, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    vp.fade_in_ms = 0;
    vp.pitch = 1.0 / 256;
    vp.volume = 16;
    vp.low_pass_hz = 10;
    OK(se_play_sound(sound, SE_MASTER_BUS, &vp, NULL, NULL, &voice));
    EDGE(se_set_voice_volume(voice, FLT_MAX, SE_MAX_DURATION_MS));
    EDGE(se_set_voice_volume(voice, 0, SE_MAX_DURATION_MS));
    EDGE(se_set_voice_pan(voice, -FLT_MAX, SE_MAX_DURATION_MS));
    EDGE(se_set_voice_pitch(voice, DBL_MAX));
    EDGE(se_set_voice_pitch(voice, DBL_MIN));
    EDGE(se_pause_voice(voice, SE_MAX_DURATION_MS));
    EDGE(se_resume_voice(voice, SE_MAX_DURATION_MS));
    EDGE(se_stop_voice(voice, SE_MAX_DURATION_MS));
    uint32_t bus;
    OK(se_get_bus_id("ui", &bus));
    EDGE(se_set_bus_volume(bus, FLT_MAX, SE_MAX_DURATION_MS));
    EDGE(se_set_bus_volume(bus, 1, SE_MAX_DURATION_MS));
    EDGE(se_set_bus_mute(bus, true, SE_MAX_DURATION_MS));
    OK(se_set_bus_mute(bus, false, 0));
    OK(se_set_bus_volume(bus, 1, 0));
    OK(se_unregister_game_object(FAR));
}


/* After all that, every kind of callback still arrives, with what it should say. */
static void callbacks(const char *sound_path) {
    OK(se_mute_background_music(true));
    WAIT_UNTIL(atomic_load(&bgm_calls) == 1 && atomic_load(&bgm_muted), 2);
    TRUE(se_is_background_music_muted());
    OK(se_mute_background_music(false));
    WAIT_UNTIL(atomic_load(&bgm_calls) == 2 && !atomic_load(&bgm_muted), 2);

    static uint32_t dialogue; /* the callback compares with it: it must outlive the posting */
    OK(se_post_event("Play_Dialogue", EMITTER, SE_CallbackEndOfEvent | SE_CallbackMarker | SE_CallbackDuration,
                     on_dialogue, &dialogue, &dialogue));
    uint64_t chime, voice;
    int voice_ends_before = atomic_load(&voice_ends); /* playback() ended one */
    OK(se_load_sound(sound_path, false, &chime));
    OK(se_play_sound(chime, SE_MASTER_BUS, NULL, on_voice_end, NULL, &voice));
    OK(se_set_bus_meter_callback(SE_MASTER_BUS, on_meter, NULL));
    WAIT_UNTIL(atomic_load(&meter_calls) >= 3, 2);
    OK(se_set_bus_meter_callback(SE_MASTER_BUS, NULL, NULL));
    WAIT_UNTIL(atomic_load(&voice_ends) == voice_ends_before + 1, 5);
    TRUE(atomic_load(&ended_voice) == voice);
    WAIT_UNTIL(atomic_load(&ends) == 1, 5);
    TRUE(atomic_load(&markers_before_end) == 2);
    TRUE(atomic_load(&durations_before_end) == 1); /* its one voice said its length when it started */
    TRUE(atomic_load(&dialogue_seen) == dialogue && atomic_load(&dialogue_strays) == 0);
    TRUE(atomic_load(&log_messages) > 0);
    OK(se_unload_sound(chime));
}

/* The engine still plays: the looping engine sound is in the master meter and frames reach the server. */
static void still_playing(uint32_t engine_playing) {
    TRUE(se_is_playing(engine_playing));
    SE_Statistics before, after;
    OK(se_get_statistics(&before, sizeof before));
    SE_BusMeter meter = {0, 0};
    double deadline = now() + 3;
    do {
        sleep_ms(20);
        OK(se_get_bus_meter(SE_MASTER_BUS, &meter));
        OK(se_get_statistics(&after, sizeof after));
    } while ((meter.rms < 0.01f || after.frames_rendered < before.frames_rendered + 4800) && now() < deadline);
    SE_AudioSessionStatus status;
    OK(se_get_audio_session_status(&status, sizeof status));
    TRUE(status.engine_state == SE_EngineStateRunning);
    TRUE(meter.rms >= 0.01f);
    TRUE(after.frames_rendered >= before.frames_rendered + 4800);
    printf("still playing: master rms %.3f, %llu frames to the server in the last %.0f ms\n", meter.rms,
           (unsigned long long)(after.frames_rendered - before.frames_rendered),
           (after.frames_rendered - before.frames_rendered) / 48.0);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: misuse BANK SOUND\n");
        return 2;
    }
    const char *bank = argv[1], *sound = argv[2];
    setvbuf(stdout, NULL, _IOLBF, 0);
    before_initialize(bank, sound);

    platform.application_name = "misuse";
    platform.audio_session.category = SE_AudioSessionCategoryAmbient;
    settings.bgm_callback = on_bgm;
    settings.log_callback = on_log;
    settings.log_level = SE_LogLevelInfo;
    OK(se_initialize(&settings, &platform));
    uint32_t bank_id, engine_playing;
    OK(se_load_bank(bank, &bank_id));
    OK(se_register_game_object(EMITTER, "emitter"));
    OK(se_post_event("Play_Engine", EMITTER, 0, NULL, NULL, &engine_playing));
    content(bank, bank_id);
    playback(sound);
    pthread_t threads[4];
    for (uintptr_t i = 0; i < 4; i++) pthread_create(&threads[i], NULL, hammer, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    edges(sound);
    callbacks(sound);
    still_playing(engine_playing);
    EDGE(se_stop_all(SE_MAX_DURATION_MS));

    /* A voice of this engine, to be stale in the next one. */
    uint64_t old_sound, old_voice;
    OK(se_load_sound(sound, false, &old_sound));
    OK(se_play_sound(old_sound, SE_MASTER_BUS, NULL, NULL, NULL, &old_voice));
    se_terminate();
    TRUE(!se_is_initialized());
    /* Terminated: valid arguments are SE_NotInitialized, old handles included. */
    uint32_t playing;
    UNINITIALIZED(se_post_event("Play_Engine", EMITTER, 0, NULL, NULL, &playing));
    UNINITIALIZED(se_stop_voice(old_voice, 0));
    UNINITIALIZED(se_unload_bank(bank_id));
    TRUE(!se_is_voice_playing(old_voice));

    /* The next engine: every handle of the last one is stale. */
    OK(se_initialize(&settings, &platform));
    INVALID(se_stop_voice(old_voice, 0));
    INVALID(se_set_voice_volume(old_voice, 1, 0));
    INVALID(se_play_sound(old_sound, SE_MASTER_BUS, NULL, NULL, NULL, &old_voice));
    INVALID(se_unload_bank(bank_id));
    INVALID(se_set_position(EMITTER, &good_transform));
    INVALID(se_unregister_game_object(EMITTER));
    se_terminate();

    return check_summary("misuse");
}
