/*
 * Starts and stops the engine CYCLES times, each time loading the demo bank,
 * registering a game object and posting an event with a callback, as a game
 * that re-initializes would. Scripts/test-c-abi (step valgrind) runs it under
 * valgrind with 5 and with 50 cycles: a leak that grows per cycle shows as
 * more bytes or blocks definitely, indirectly or possibly lost at 50 than
 * at 5 (the limits, and why they leave room for what is not per cycle, are
 * in valgrind_cycles there).
 *
 *   cycles CYCLES BANK
 */
#include <sound_engine.h>

#include <stdio.h>
#include <stdlib.h>

static void on_event(const SE_EventCallbackInfo *info, void *cookie) {
    (void)info;
    ++*(int *)cookie;
}

static int check(SE_Result result, const char *what) {
    if (result == SE_Success) return 1;
    fprintf(stderr, "cycles: %s: %s (%s)\n", what, se_result_string(result), se_last_error_message());
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: cycles CYCLES BANK\n");
        return 2;
    }
    int cycles = atoi(argv[1]);
    SE_InitSettings settings;
    SE_PlatformInitSettings platform;
    se_default_init_settings(&settings, sizeof settings);
    se_default_platform_init_settings(&platform, sizeof platform);
    platform.application_name = "cycles";
    platform.audio_session.category = SE_AudioSessionCategoryAmbient;
    platform.connect_timeout_ms = 20000; /* valgrind is slow */
    int callbacks = 0;
    for (int i = 0; i < cycles; i++) {
        uint32_t bank, playing;
        SE_Route *route;
        if (!check(se_initialize(&settings, &platform), "se_initialize") ||
            !check(se_load_bank(argv[2], &bank), "se_load_bank") ||
            !check(se_register_game_object(1, "cycles"), "se_register_game_object") ||
            !check(se_post_event("Play_UI_Click", 1, SE_CallbackEndOfEvent, on_event, &callbacks, &playing),
                   "se_post_event") ||
            !check(se_get_current_route(&route), "se_get_current_route"))
            return 1;
        se_free_route(route);
        se_terminate(); /* the click's end-of-event runs before it returns */
    }
    printf("cycles: %d initialize/terminate cycles, %d end-of-event callbacks\n", cycles, callbacks);
    return callbacks == cycles ? 0 : 1;
}
