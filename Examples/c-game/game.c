/*
 * A small C11 game that plays through SoundEngine's C API (docs/c-api.md).
 *
 *   make && ./c-game                 walk around a humming campfire for 8 s
 *   ./c-game --seconds 30 --bank ../Banks/demo/demo.json
 *
 * It starts the engine with the soloAmbient session (the player's music is
 * silenced while the game plays; SE_AudioSessionCategoryAmbient would mix
 * with it), loads the demo bank, and runs a 60 Hz game loop: the player
 * walks in a circle around a campfire, posting a footstep every 400 ms on
 * a surface that changes every few steps, while the campfire hums from where
 * it stands. A call (another app playing with media.role=phone) interrupts
 * the game: it pauses its footsteps until the interruption ends. Plugged-in
 * headphones change the route. Both are printed. Ctrl-C ends the game
 * cleanly; so does the end of --seconds.
 *
 * Threads: the callbacks run on the engine's event thread, not in the game
 * loop. They only print and set an atomic flag the loop reads.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <sound_engine.h>

#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PLAYER = 1, CAMPFIRE = 2 };

static volatile sig_atomic_t quit_requested;
static atomic_bool interrupted;
static atomic_int footsteps_finished;

static void on_signal(int signal_number) {
    (void)signal_number;
    quit_requested = 1;
}

static const char *first_output(const SE_Route *route) {
    return route != NULL && route->output_count > 0 ? route->outputs[0].uid : "(none)";
}

/* Event thread. */
static void on_interruption(const SE_Interruption *interruption, void *cookie) {
    (void)cookie;
    if (interruption->type == SE_InterruptionTypeBegan) {
        atomic_store(&interrupted, true);
        printf("interruption began (source %u%s)\n", interruption->source,
               interruption->source == SE_InterruptionSourcePhoneCall ? ": a phone call" : "");
    } else {
        atomic_store(&interrupted, false);
        printf("interruption ended (should resume: %s)\n", interruption->should_resume ? "yes" : "no");
    }
}

/* Event thread. */
static void on_route_change(const SE_RouteChange *change, void *cookie) {
    (void)cookie;
    printf("route change (reason %u): output %s -> %s\n", change->reason, first_output(change->previous_route),
           first_output(change->current_route));
}

/* Event thread. */
static void on_footstep(const SE_EventCallbackInfo *info, void *cookie) {
    (void)cookie;
    if (info->type == SE_CallbackEndOfEvent && atomic_fetch_add(&footsteps_finished, 1) == 0)
        printf("first footstep finished\n");
}

/* Prints what failed and returns false, for `if (!ok(...))`. */
static bool ok(SE_Result result, const char *what) {
    if (result == SE_Success) return true;
    fprintf(stderr, "c-game: %s: %s (%s)\n", what, se_result_string(result), se_last_error_message());
    return false;
}

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

int main(int argc, char **argv) {
    double seconds = 8;
    const char *bank_path = "../Banks/demo/demo.json";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0) seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--bank") == 0) bank_path = argv[i + 1];
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* one line at a time, also into a pipe */
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    SE_InitSettings settings;
    SE_PlatformInitSettings platform;
    se_default_init_settings(&settings, sizeof settings);
    se_default_platform_init_settings(&platform, sizeof platform);
    platform.application_name = "c-game";
    platform.audio_session.category = SE_AudioSessionCategorySoloAmbient;
    platform.interruption_callback = on_interruption;
    platform.route_change_callback = on_route_change;
    if (!ok(se_initialize(&settings, &platform), "se_initialize")) return 1;

    int status = 1;
    uint32_t bank;
    if (!ok(se_load_bank(bank_path, &bank), "se_load_bank")) goto done;
    if (!ok(se_register_game_object(PLAYER, "Player"), "register player")) goto done;
    if (!ok(se_register_game_object(CAMPFIRE, "Campfire"), "register campfire")) goto done;
    uint64_t listener = PLAYER;
    if (!ok(se_set_default_listeners(&listener, 1), "se_set_default_listeners")) goto done;
    SE_Transform fire = {{0, 0, 5}, {0, 0, 1}, {0, 1, 0}};
    if (!ok(se_set_position(CAMPFIRE, &fire), "place campfire")) goto done;
    uint32_t hum;
    if (!ok(se_post_event("Play_Emitter", CAMPFIRE, 0, NULL, NULL, &hum), "Play_Emitter")) goto done;

    SE_Route *route;
    if (ok(se_get_current_route(&route), "se_get_current_route")) {
        printf("ready: soloAmbient session, bank %s loaded, output %s\n", bank_path, first_output(route));
        se_free_route(route);
    }

    static const char *const surfaces[] = {"grass", "gravel", "wood"};
    int footsteps_posted = 0;
    const int frames = (int)(seconds * 60);
    for (int frame = 0; frame < frames && !quit_requested; frame++) {
        /* The player walks a circle of radius 4 around the campfire, facing along the path. */
        double angle = frame / 60.0 * 0.5;
        SE_Transform player = {
            {(float)(4 * cos(angle)), 0, (float)(5 + 4 * sin(angle))},
            {(float)-sin(angle), 0, (float)cos(angle)},
            {0, 1, 0},
        };
        se_set_position(PLAYER, &player);
        if (frame % 24 == 0 && !atomic_load(&interrupted)) { /* every 400 ms, unless a call is on */
            se_set_switch("Surface", surfaces[(footsteps_posted / 4) % 3], PLAYER);
            uint32_t step;
            if (ok(se_post_event("Play_Footstep", PLAYER, SE_CallbackEndOfEvent, on_footstep, NULL, &step),
                   "Play_Footstep"))
                footsteps_posted++;
        }
        sleep_ms(16);
    }
    printf("footsteps: %d posted, %d finished\n", footsteps_posted, atomic_load(&footsteps_finished));
    status = 0;

done:
    se_terminate(); /* stops every voice; their callbacks run before it returns */
    printf("terminated\n");
    return status;
}
