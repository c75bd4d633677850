// The C++17 version of Examples/c-game (docs/c-api.md): the same walk
// around a humming campfire, with RAII around the engine and the game
// objects, so every way out of main terminates the engine.
//
//   ./cpp-game [--seconds 8] [--bank ../Banks/demo/demo.json]
//
// Threads: the callbacks run on the engine's event thread; they only print
// and set an atomic the game loop reads.
#include <sound_engine.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

// Throws what the last call on this thread said when `result` is a failure.
void check(SE_Result result, const char *what) {
    if (result != SE_Success)
        throw std::runtime_error(std::string(what) + ": " + se_result_string(result) + " (" +
                                 se_last_error_message() + ")");
}

// The engine, from se_initialize to se_terminate: one per process.
class Engine {
  public:
    Engine(const SE_InitSettings &settings, const SE_PlatformInitSettings &platform) {
        check(se_initialize(&settings, &platform), "se_initialize");
    }
    ~Engine() { se_terminate(); }  // stops every voice; their callbacks run before it returns
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;
};

// A registered game object, unregistered when it goes out of scope.
class GameObject {
  public:
    GameObject(uint64_t id, const char *name) : id_(id) {
        check(se_register_game_object(id, name), "se_register_game_object");
    }
    ~GameObject() { se_unregister_game_object(id_); }
    GameObject(const GameObject &) = delete;
    GameObject &operator=(const GameObject &) = delete;

    uint64_t id() const { return id_; }
    void place(const SE_Transform &transform) const { check(se_set_position(id_, &transform), "se_set_position"); }
    uint32_t post(const char *event, SE_CallbackType flags = 0, SE_EventCallback callback = nullptr) const {
        uint32_t playing = 0;
        check(se_post_event(event, id_, flags, callback, nullptr, &playing), event);
        return playing;
    }

  private:
    uint64_t id_;
};

volatile std::sig_atomic_t quit_requested = 0;
std::atomic<bool> interrupted{false};
std::atomic<int> footsteps_finished{0};

const char *first_output(const SE_Route *route) {
    return route != nullptr && route->output_count > 0 ? route->outputs[0].uid : "(none)";
}

extern "C" void on_signal(int) { quit_requested = 1; }

// Event thread.
extern "C" void on_interruption(const SE_Interruption *interruption, void *) {
    if (interruption->type == SE_InterruptionTypeBegan) {
        interrupted = true;
        std::printf("interruption began (source %u%s)\n", interruption->source,
                    interruption->source == SE_InterruptionSourcePhoneCall ? ": a phone call" : "");
    } else {
        interrupted = false;
        std::printf("interruption ended (should resume: %s)\n", interruption->should_resume ? "yes" : "no");
    }
}

// Event thread.
extern "C" void on_route_change(const SE_RouteChange *change, void *) {
    std::printf("route change (reason %u): output %s -> %s\n", change->reason, first_output(change->previous_route),
                first_output(change->current_route));
}

// Event thread.
extern "C" void on_footstep(const SE_EventCallbackInfo *info, void *) {
    if (info->type == SE_CallbackEndOfEvent && footsteps_finished++ == 0) std::printf("first footstep finished\n");
}

void play(double seconds, const char *bank_path) {
    SE_InitSettings settings;
    SE_PlatformInitSettings platform;
    check(se_default_init_settings(&settings, sizeof settings), "se_default_init_settings");
    check(se_default_platform_init_settings(&platform, sizeof platform), "se_default_platform_init_settings");
    platform.application_name = "cpp-game";
    platform.audio_session.category = SE_AudioSessionCategorySoloAmbient;
    platform.interruption_callback = on_interruption;
    platform.route_change_callback = on_route_change;
    Engine engine(settings, platform);

    uint32_t bank = 0;
    check(se_load_bank(bank_path, &bank), "se_load_bank");
    GameObject player(1, "Player");
    GameObject campfire(2, "Campfire");
    uint64_t listener = player.id();
    check(se_set_default_listeners(&listener, 1), "se_set_default_listeners");
    campfire.place({{0, 0, 5}, {0, 0, 1}, {0, 1, 0}});
    campfire.post("Play_Emitter");

    SE_Route *route = nullptr;
    check(se_get_current_route(&route), "se_get_current_route");
    std::printf("ready: soloAmbient session, bank %s loaded, output %s\n", bank_path, first_output(route));
    se_free_route(route);

    const std::array<const char *, 3> surfaces{"grass", "gravel", "wood"};
    int posted = 0;
    const int frames = static_cast<int>(seconds * 60);
    for (int frame = 0; frame < frames && !quit_requested; ++frame) {
        // The player walks a circle of radius 4 around the campfire, facing along the path.
        const double angle = frame / 60.0 * 0.5;
        player.place({{static_cast<float>(4 * std::cos(angle)), 0, static_cast<float>(5 + 4 * std::sin(angle))},
                      {static_cast<float>(-std::sin(angle)), 0, static_cast<float>(std::cos(angle))},
                      {0, 1, 0}});
        if (frame % 24 == 0 && !interrupted) {  // every 400 ms, unless a call is on
            check(se_set_switch("Surface", surfaces[(posted / 4) % 3], player.id()), "se_set_switch");
            player.post("Play_Footstep", SE_CallbackEndOfEvent, on_footstep);
            ++posted;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    std::printf("footsteps: %d posted, %d finished\n", posted, footsteps_finished.load());
}  // campfire, player, then the engine: unregistered, unregistered, terminated

}  // namespace

int main(int argc, char **argv) {
    double seconds = 8;
    const char *bank_path = "../Banks/demo/demo.json";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--bank") == 0) bank_path = argv[i + 1];
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // one line at a time, also into a pipe
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    try {
        play(seconds, bank_path);
    } catch (const std::exception &error) {
        std::fprintf(stderr, "cpp-game: %s\n", error.what());
        return 1;
    }
    std::printf("terminated\n");
    return 0;
}
