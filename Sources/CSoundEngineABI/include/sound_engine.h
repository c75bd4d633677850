/*
 * sound_engine.h: the C API of SoundEngine (libsoundengine), for C and C++ games.
 *
 * SoundEngine is a Wwise-shaped sound engine with iOS AVAudioSession
 * semantics on PulseAudio (and pipewire-pulse). This header is the whole C
 * API: every function the library exports is declared here, with the Wwise
 * or AVAudioSession call it mirrors. Getting started: docs/c-api.md.
 *
 *     SE_InitSettings settings;
 *     SE_PlatformInitSettings platform;
 *     se_default_init_settings(&settings, sizeof settings);
 *     se_default_platform_init_settings(&platform, sizeof platform);
 *     platform.audio_session.category = SE_AudioSessionCategoryAmbient;
 *     if (se_initialize(&settings, &platform) != SE_Success)
 *         fprintf(stderr, "no sound: %s\n", se_last_error_message());
 *     ...
 *     se_terminate();
 *
 * Link with `pkg-config --cflags --libs soundengine`.
 *
 * RULES THAT HOLD FOR EVERY FUNCTION
 *
 * Threads. Every function may be called from any thread, at any time,
 * also before se_initialize and after se_terminate. Callbacks (every
 * function pointer below except the log callback) run on the engine's event
 * thread, "SoundEngine-evt": never on the real-time render thread, one at a
 * time, in the order things happened. A callback may call any se_ function,
 * se_terminate included (the event thread then ends once the callback
 * returns). A callback should return quickly: the next one waits for it.
 * No callback runs after se_terminate has returned.
 *
 * Results. Functions that can fail return an SE_Result: SE_Success (1), or
 * the Wwise AKRESULT value of what went wrong (SE_InvalidParameter = 31,
 * SE_NotInitialized = 102, ...). A failed call changes nothing. After a
 * failure se_last_error_message() says in words what was wrong (the same
 * words the Swift API's error carries); it is per thread.
 *
 * Arguments. No argument can crash the game. Arguments are checked before
 * anything else, so these return SE_InvalidParameter even before
 * se_initialize: NULL where a pointer is required (optional pointers say
 * so), a float that is NaN or infinite, a time outside 0...SE_MAX_DURATION_MS,
 * a string that is not UTF-8, a struct whose struct_size is not a size this
 * library knows, a value outside its documented range, an enum value that is
 * not listed. Handles (bank, game object, sound, voice and bus IDs) that do
 * not name something live - never made, unloaded, unregistered, ended, or
 * from an engine that was terminated since - are also SE_InvalidParameter.
 * A name (event, RTPC, state, switch, bus) that no loaded bank defines is
 * SE_IDNotFound. With valid arguments, every call that needs the engine
 * returns SE_NotInitialized before se_initialize and after se_terminate.
 *
 * Playing IDs (se_post_event's) follow Wwise: a posting ends on its own at
 * any moment, so one that has ended is no error where the game could not
 * have known. The calls that act on a posting (se_stop_playing_id,
 * se_pause_playing_id, se_resume_playing_id, se_seek_on_playing_id[_fraction],
 * se_set_rtpc_value_by_playing_id, se_reset_rtpc_value_by_playing_id) do
 * nothing and return SE_Success; the calls that read one
 * (se_get_source_play_position, se_get_rtpc_value_by_playing_id) return
 * SE_IDNotFound, as there is nothing to read; se_is_playing says false. 0 and
 * an ID that no posting of the running engine ever had are SE_InvalidParameter
 * everywhere. IDs restart at 1 in each engine, so an ID kept across
 * se_terminate may name a posting of the next one.
 *
 * Memory. The library never keeps a pointer the game passed in: strings and
 * structs are copied before the call returns. Pointers the library passes
 * to callbacks (strings, routes, meters, samples) are valid only during the
 * callback. What a function allocates for the game says how to free it
 * (the port lists of se_get_current_route, se_get_output_devices,
 * se_get_available_inputs and se_get_preferred_input: se_free_route).
 *
 * Versions. Structs the game fills, and those the library fills for it,
 * start with `uint32_t struct_size`, which se_default_* sets to the size
 * this header declares. A struct grows only by fields added at its end, and
 * the library accepts the size of every version it has had: a program built
 * against an older header passes its older sizeof, and the fields its
 * struct lacks take their defaults (or are not written). A size the library
 * does not know is refused with SE_InvalidParameter, never read or written
 * past. Fixed-layout structs (SE_AudioSessionProperties, SE_Vector3,
 * SE_Transform, SE_BusMeter) never change; reserved fields must be 0.
 */
#ifndef SOUND_ENGINE_H
#define SOUND_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The version of this header: 1.2.0. A library of a version accepts every
 * program built against a header of the same major version and no newer
 * minor one. 1.1 added the functions and fields marked "(1.1)", 1.2 those
 * marked "(1.2)" (the live profiler's settings).
 */
#define SE_VERSION_MAJOR 1
#define SE_VERSION_MINOR 2
#define SE_VERSION_PATCH 0

/** The longest fade, ramp or interpolation a time argument may ask for: one hour, in ms. */
#define SE_MAX_DURATION_MS 3600000

/* ------------------------------------------------------------------------- */
/* Result codes                                                              */
/* ------------------------------------------------------------------------- */

/** What a call did: one of the SE_ codes below, with Wwise's AKRESULT values. */
typedef int32_t SE_Result;
enum {
    /** The operation exists but not on this platform or server (AK_NotImplemented). */
    SE_NotImplemented = 0,
    /** The call did what it says (AK_Success). */
    SE_Success = 1,
    /** Any other failure, and every audio-session refusal (AK_Fail); see
     *  se_last_error_session_code(). */
    SE_Fail = 2,
    /** A file exists but is not valid audio or bank data (AK_InvalidFile). */
    SE_InvalidFile = 7,
    /** A fixed limit was reached: voices, buses, sounds (AK_MaxReached). */
    SE_MaxReached = 9,
    /** A name or ID no loaded bank defines; for a reader of a posting, one that has ended (AK_IDNotFound). */
    SE_IDNotFound = 15,
    /** An argument was NULL, NaN, out of range, or a stale handle (AK_InvalidParameter). */
    SE_InvalidParameter = 31,
    /** A fixed-capacity pool was exhausted or an allocation failed (AK_InsufficientMemory). */
    SE_InsufficientMemory = 52,
    /** A file does not exist or cannot be opened (AK_FileNotFound). */
    SE_FileNotFound = 66,
    /** No sound server answered, or the device cannot be used (AK_DeviceNotReady). */
    SE_DeviceNotReady = 67,
    /** The command queue is full; raise command_queue_size (AK_Busy). */
    SE_Busy = 77,
    /** se_initialize while the engine runs (AK_AlreadyInitialized). */
    SE_AlreadyInitialized = 101,
    /** The call needs the engine: before se_initialize or after se_terminate (AK_NotInitialized). */
    SE_NotInitialized = 102
};

/**
 * The name of a result code, e.g. "SE_InvalidParameter"; "SE_Unknown" for a
 * value that is none of the codes above. The string is static: never free it.
 */
const char *se_result_string(SE_Result result);

/**
 * What the last failed call of this thread said was wrong, in words, e.g.
 * "InitSettings.samplesPerFrame = 500: must be a power of two between 64 and
 * 8192"; "" when the last call of this thread that returns an SE_Result
 * succeeded. Valid until the next se_ call on this thread; never free it.
 */
const char *se_last_error_message(void);

/**
 * For the last failed call of this thread, the AVAudioSession error code
 * (an OSStatus) when the failure was an audio-session refusal:
 * '!cat' 560161140 incompatibleCategory, '!int' 560557684
 * cannotInterruptOthers, '!act' 560030580 isBusy, '!pla' 561015905
 * cannotStartPlaying, '!rec' 561145187 cannotStartRecording, '!res'
 * 561145203 resourceNotAvailable, 'inac' 1768841571 sessionNotActive,
 * 'msrv' 1836282486 mediaServicesFailed, '!pri' 561017449
 * insufficientPriority, -50 for SE_InvalidParameter; 0 otherwise.
 */
int32_t se_last_error_session_code(void);

/* ------------------------------------------------------------------------- */
/* Audio-session values (AVAudioSession; Wwise's AkAudioSession* enums)      */
/* ------------------------------------------------------------------------- */

/** What kind of audio the game makes (AkAudioSessionCategory; AVAudioSession.Category). */
typedef uint32_t SE_AudioSessionCategory;
enum {
    /** Mixes with other apps; silent in the background. */
    SE_AudioSessionCategoryAmbient = 0,
    /** Non-mixable: other apps' music is silenced while active. The default. */
    SE_AudioSessionCategorySoloAmbient = 1,
    /** Playing and recording (voice chat); output to the receiver when nothing is plugged in. */
    SE_AudioSessionCategoryPlayAndRecord = 2,
    /** Audio that is the point of the app; keeps playing in the background. */
    SE_AudioSessionCategoryPlayback = 3,
    /** Recording only, no output (not in Wwise). */
    SE_AudioSessionCategoryRecord = 4,
    /** Separate streams to several outputs (not in Wwise). */
    SE_AudioSessionCategoryMultiRoute = 5,
    /** Neither input nor output; deprecated on iOS (not in Wwise). */
    SE_AudioSessionCategoryAudioProcessing = 6
};

/** Modifiers of a category, a bitmask (AkAudioSessionCategoryOptions; same bits as iOS). */
typedef uint32_t SE_AudioSessionCategoryOptions;
enum {
    SE_AudioSessionCategoryOptionMixWithOthers = 0x1,
    SE_AudioSessionCategoryOptionDuckOthers = 0x2,
    SE_AudioSessionCategoryOptionAllowBluetooth = 0x4,
    SE_AudioSessionCategoryOptionDefaultToSpeaker = 0x8,
    SE_AudioSessionCategoryOptionInterruptSpokenAudioAndMixWithOthers = 0x11,
    SE_AudioSessionCategoryOptionAllowBluetoothA2DP = 0x20,
    SE_AudioSessionCategoryOptionAllowAirPlay = 0x40,
    SE_AudioSessionCategoryOptionOverrideMutedMicrophoneInterruption = 0x80
};

/** A refinement of the category (AkAudioSessionMode; AVAudioSession.Mode). */
typedef uint32_t SE_AudioSessionMode;
enum {
    SE_AudioSessionModeDefault = 0,
    SE_AudioSessionModeVoiceChat = 1,
    SE_AudioSessionModeGameChat = 2,
    SE_AudioSessionModeVideoRecording = 3,
    SE_AudioSessionModeMeasurement = 4,
    SE_AudioSessionModeMoviePlayback = 5,
    SE_AudioSessionModeVideoChat = 6,
    /** Not in Wwise. */
    SE_AudioSessionModeSpokenAudio = 7,
    /** Not in Wwise. */
    SE_AudioSessionModeVoicePrompt = 8
};

/** How the session shares its route (AkAudioSessionRouteSharingPolicy; iOS raw values). */
typedef uint32_t SE_AudioSessionRouteSharingPolicy;
enum {
    SE_AudioSessionRouteSharingPolicyDefault = 0,
    SE_AudioSessionRouteSharingPolicyLongFormAudio = 1,
    SE_AudioSessionRouteSharingPolicyIndependent = 2,
    SE_AudioSessionRouteSharingPolicyLongFormVideo = 3
};

/** Options of activation and deactivation, a bitmask (AkAudioSessionSetActiveOptions). */
typedef uint32_t SE_AudioSessionSetActiveOptions;
enum { SE_AudioSessionSetActiveOptionNotifyOthersOnDeactivation = 0x1 };

/** Wwise-only behaviour flags, a bitmask (AkAudioSessionBehaviorOptions). */
typedef uint32_t SE_AudioSessionBehaviorOptions;
enum {
    /** Stop rendering in the background even in playback and playAndRecord. */
    SE_AudioSessionBehaviorSuspendInBackground = 0x1
};

/** A temporary output override (AVAudioSession.PortOverride). */
typedef uint32_t SE_AudioSessionPortOverride;
enum {
    SE_AudioSessionPortOverrideNone = 0,
    /** 'spkr': the built-in speaker until the next route change or interruption; playAndRecord only. */
    SE_AudioSessionPortOverrideSpeaker = 0x73706B72
};

/**
 * The audio session (AkAudioSessionProperties): category, options, mode,
 * route-sharing policy, the options used when the engine deactivates the
 * session, Wwise behaviour flags. Fixed layout; `reserved` must be zero.
 * Which category takes which option and mode: docs/audio-session.md; a
 * combination iOS refuses is refused here too (SE_InvalidParameter, or
 * SE_Fail with session code '!cat').
 */
typedef struct SE_AudioSessionProperties {
    SE_AudioSessionCategory category;
    SE_AudioSessionCategoryOptions category_options;
    SE_AudioSessionMode mode;
    SE_AudioSessionRouteSharingPolicy route_sharing_policy;
    SE_AudioSessionSetActiveOptions set_active_options;
    SE_AudioSessionBehaviorOptions behavior;
    uint32_t reserved[2];
} SE_AudioSessionProperties;

/** The kind of a port (AVAudioSession.Port). */
typedef uint32_t SE_PortType;
enum {
    SE_PortLineIn = 0,
    SE_PortBuiltInMic = 1,
    SE_PortHeadsetMic = 2,
    SE_PortLineOut = 3,
    SE_PortHeadphones = 4,
    SE_PortBluetoothA2DP = 5,
    SE_PortBuiltInReceiver = 6,
    SE_PortBuiltInSpeaker = 7,
    SE_PortHDMI = 8,
    SE_PortAirPlay = 9,
    SE_PortBluetoothLE = 10,
    SE_PortBluetoothHFP = 11,
    SE_PortUSBAudio = 12,
    SE_PortCarAudio = 13,
    /** Not real hardware, such as a null sink. */
    SE_PortVirtual = 14,
    SE_PortPCI = 15,
    SE_PortFireWire = 16,
    SE_PortDisplayPort = 17,
    SE_PortAVB = 18,
    SE_PortThunderbolt = 19
};

/** One input or output of a route (AVAudioSessionPortDescription). */
typedef struct SE_Port {
    /** The kind of port. */
    SE_PortType type;
    /** The iOS port string, e.g. "Speaker", "Headphones", "USBAudio". */
    const char *type_name;
    /** A human-readable name, e.g. "Speaker". */
    const char *name;
    /** A stable identifier: the PulseAudio device name, or "device#port". */
    const char *uid;
} SE_Port;

/** The inputs and outputs in use (AVAudioSessionRouteDescription). */
typedef struct SE_Route {
    uint32_t input_count;
    uint32_t output_count;
    /** input_count ports (NULL when 0). */
    const SE_Port *inputs;
    /** output_count ports (NULL when 0). */
    const SE_Port *outputs;
} SE_Route;

/** Whether an interruption begins or ends (AVAudioSessionInterruptionType). */
typedef uint32_t SE_InterruptionType;
enum { SE_InterruptionTypeEnded = 0, SE_InterruptionTypeBegan = 1 };

/** Why an interruption began (AVAudioSessionInterruptionReason). */
typedef uint32_t SE_InterruptionReason;
enum {
    SE_InterruptionReasonDefault = 0,
    SE_InterruptionReasonAppWasSuspended = 1,
    SE_InterruptionReasonBuiltInMicMuted = 2,
    SE_InterruptionReasonSceneWasBackgrounded = 3,
    SE_InterruptionReasonRouteDisconnected = 4,
    SE_InterruptionReasonDeviceUnauthenticated = 5
};

/** What on Linux interrupted the session. */
typedef uint32_t SE_InterruptionSource;
enum {
    /** Set on ended interruptions. */
    SE_InterruptionSourceNone = 0,
    /** The server asked our stream to cork (PulseAudio's module-role-cork). */
    SE_InterruptionSourceServerCorkRequest = 1,
    /** Another client's stream with media.role=phone plays. */
    SE_InterruptionSourcePhoneCall = 2,
    /** Another client's music or video started while the category is non-mixable. */
    SE_InterruptionSourceOtherMedia = 3,
    /** The input in use was muted. */
    SE_InterruptionSourceMicrophoneMuted = 4
};

/** An interruption began or ended (AVAudioSession.interruptionNotification's user info). */
typedef struct SE_Interruption {
    SE_InterruptionType type;
    /** On ended: whether the engine has resumed by itself (AVAudioSessionInterruptionOptionShouldResume). */
    bool should_resume;
    /** On began: why; SE_InterruptionReasonDefault on ended. */
    SE_InterruptionReason reason;
    /** On began: what interrupted; SE_InterruptionSourceNone on ended. */
    SE_InterruptionSource source;
} SE_Interruption;

/** Why the route changed (AVAudioSessionRouteChangeReason; there is no 5). */
typedef uint32_t SE_RouteChangeReason;
enum {
    SE_RouteChangeReasonUnknown = 0,
    SE_RouteChangeReasonNewDeviceAvailable = 1,
    SE_RouteChangeReasonOldDeviceUnavailable = 2,
    SE_RouteChangeReasonCategoryChange = 3,
    SE_RouteChangeReasonOverride = 4,
    SE_RouteChangeReasonWakeFromSleep = 6,
    SE_RouteChangeReasonNoSuitableRouteForCategory = 7,
    SE_RouteChangeReasonRouteConfigurationChange = 8
};

/** A route change (AVAudioSession.routeChangeNotification's user info, plus the new route). */
typedef struct SE_RouteChange {
    SE_RouteChangeReason reason;
    /** The route before the change (AVAudioSessionRouteChangePreviousRouteKey). */
    const SE_Route *previous_route;
    /** The route after the change. */
    const SE_Route *current_route;
} SE_RouteChange;

/** Whether another app's primary audio started or stopped (AVAudioSessionSilenceSecondaryAudioHintType). */
typedef uint32_t SE_SilenceSecondaryAudioHintType;
enum { SE_SilenceSecondaryAudioHintEnd = 0, SE_SilenceSecondaryAudioHintBegin = 1 };

/** Whether the engine renders. */
typedef uint32_t SE_EngineState;
enum { SE_EngineStateRunning = 0, SE_EngineStatePaused = 1, SE_EngineStateStopped = 2 };

/** Why a paused engine is paused. */
typedef uint32_t SE_PauseReason;
enum {
    SE_PauseReasonNone = 0,
    SE_PauseReasonNotConnected = 1,
    SE_PauseReasonMediaServicesLost = 2,
    SE_PauseReasonSessionInactive = 3,
    SE_PauseReasonInterrupted = 4,
    SE_PauseReasonAppInBackground = 5,
    SE_PauseReasonSuspendedByGame = 6,
    SE_PauseReasonSuspendedByGameRenderAnyway = 7
};

/** The live session, read by se_get_audio_session_status. */
typedef struct SE_AudioSessionStatus {
    uint32_t struct_size;
    /** The configuration in force. */
    SE_AudioSessionProperties properties;
    /** Whether the session is active (AVAudioSession's setActive). */
    bool is_active;
    /** Whether an interruption is in progress. */
    bool is_interrupted;
    /** Whether other apps' audio plays audibly (isOtherAudioPlaying). */
    bool is_other_audio_playing;
    /** Whether the game should silence its soundtrack (secondaryAudioShouldBeSilencedHint). */
    bool secondary_audio_should_be_silenced_hint;
    /** Whether any input device is present (isInputAvailable). */
    bool is_input_available;
    /** Whether the input the route uses is muted at the server. */
    bool is_input_muted;
    /** The temporary output override in force. */
    SE_AudioSessionPortOverride output_port_override;
    /** Whether the engine renders, and if not why. */
    SE_EngineState engine_state;
    SE_PauseReason pause_reason;
    /** (1.1) Whether the mode asks for echo cancellation (voiceChat, videoChat, gameChat). */
    bool is_echo_cancellation_requested;
    /**
     * (1.1) Whether the server honours that wish: PulseAudio with
     * module-filter-heuristics and module-filter-apply puts module-echo-cancel
     * between the engine's streams and the devices. pipewire-pulse ignores
     * the wish: false there, and a voice-chat game should fall back
     * (headphones, push-to-talk) rather than assume it.
     */
    bool is_echo_cancellation_available;
} SE_AudioSessionStatus;

/* ------------------------------------------------------------------------- */
/* Callbacks                                                                 */
/* ------------------------------------------------------------------------- */

/**
 * An interruption began or ended (Wwise AudioInterruptionCallbackFunc). When
 * it runs with began, the engine has already paused and is fading out; with
 * ended and should_resume, it has already resumed. `interruption` is valid
 * during the call only. Event thread.
 */
typedef void (*SE_InterruptionCallback)(const SE_Interruption *interruption, void *cookie);

/** The route changed; `change` and its routes are valid during the call only. Event thread. */
typedef void (*SE_RouteChangeCallback)(const SE_RouteChange *change, void *cookie);

/**
 * The sound server went away (media services lost) or came back with the
 * engine's streams rebuilt (media services reset). Event thread.
 */
typedef void (*SE_MediaServicesCallback)(void *cookie);

/** Other apps' audio started (true) or stopped playing audibly. Event thread. */
typedef void (*SE_OtherAudioPlayingCallback)(bool other_audio_playing, void *cookie);

/** Another app's primary audio started (Begin) or stopped (End). Event thread. */
typedef void (*SE_SilenceSecondaryAudioHintCallback)(SE_SilenceSecondaryAudioHintType type, void *cookie);

/**
 * Captured input (record and playAndRecord): `frame_count` interleaved
 * float frames of `channel_count` channels; valid during the call only. Event thread.
 */
typedef void (*SE_InputCallback)(const float *samples, size_t frame_count, uint32_t channel_count, void *cookie);

/**
 * The buses flagged "mute for background music" were muted (true) or
 * unmuted, by the session or by se_mute_background_music (Wwise
 * AkBackgroundMusicChangeCallbackFunc). Event thread.
 */
typedef void (*SE_BackgroundMusicCallback)(bool background_music_muted, void *cookie);

/** Severity of a log message. */
typedef uint32_t SE_LogLevel;
enum { SE_LogLevelDebug = 0, SE_LogLevelInfo = 1, SE_LogLevelWarning = 2, SE_LogLevelError = 3 };

/**
 * A message from the engine. Unlike the other callbacks this one is called
 * from any of the engine's threads and from the game's own threads inside
 * se_ calls (never the render thread), possibly at the same time: it must be
 * thread-safe and must not call se_ functions. `message` is valid during the
 * call only.
 */
typedef void (*SE_LogCallback)(SE_LogLevel level, const char *message, void *cookie);

/** What a voice does while the voice limit (max_audible_voices) leaves it out. */
typedef uint32_t SE_VirtualBehavior;
enum {
    /** It ends (fading out over the de-click if it was heard). */
    SE_VirtualBehaviorKill = 0,
    /** It goes silent keeping its place in time, and is heard again where it would have been. */
    SE_VirtualBehaviorContinue = 1,
    /** It goes silent holding its start, and plays from the beginning when it is heard again. */
    SE_VirtualBehaviorRestart = 2
};

/** What an event callback reports (Wwise AkCallbackType bits, for se_post_event's callback_flags). */
typedef uint32_t SE_CallbackType;
enum {
    /** The posting has finished: sent exactly once per playing ID (AK_EndOfEvent). */
    SE_CallbackEndOfEvent = 0x1,
    /** A voice of the posting crossed a marker of its sound (AK_Marker). */
    SE_CallbackMarker = 0x4,
    /**
     * A voice of the posting started (AK_Duration): `sound_name`, its
     * length in `duration_ms` (one lap of a loop, before pitch; -1 for a
     * stream whose file does not say) and `streaming`. Once per voice, before
     * its markers and the end of event.
     */
    SE_CallbackDuration = 0x8,
    /**
     * A voice of the posting did not play: it could not start (SE_MaxReached:
     * every voice slot holds a voice of at least its priority) or its
     * streamed file could not be read; `result` and `message` say which.
     */
    SE_CallbackVoiceFailed = 0x10
};

/** One event callback. */
typedef struct SE_EventCallbackInfo {
    /** SE_CallbackEndOfEvent, SE_CallbackMarker, SE_CallbackDuration or SE_CallbackVoiceFailed. */
    SE_CallbackType type;
    /** The posting. */
    uint32_t playing_id;
    /** The game object the event was posted on. */
    uint64_t game_object;
    /** For a marker: its name in the bank; NULL for end of event. */
    const char *marker_name;
    /** For a marker or a duration: the sound's name; NULL otherwise. */
    const char *sound_name;
    /** For a failed voice: why (SE_MaxReached, SE_FileNotFound…); SE_Success otherwise. */
    SE_Result result;
    /** For a failed voice: the engine's words, naming the sound or file; NULL otherwise. */
    const char *message;
    /** For a duration: the sound's length in ms (-1: unknown); 0 otherwise. */
    double duration_ms;
    /** For a duration: the sound streams from disk. */
    bool streaming;
} SE_EventCallbackInfo;

/**
 * An event's callback (Wwise AkCallbackFunc). Markers arrive in order,
 * always before the posting's end of event. `info` and its strings are valid
 * during the call only. Event thread.
 */
typedef void (*SE_EventCallback)(const SE_EventCallbackInfo *info, void *cookie);

/**
 * A voice ended: SE_Success when it played out, was stopped or its sound was
 * unloaded; an error code (and `message`, valid during the call only) when
 * its streamed file could not be read. Called exactly once per voice. Event thread.
 */
typedef void (*SE_VoiceEndCallback)(uint64_t voice, SE_Result result, const char *message, void *cookie);

/** A bus's level after its gain, over the last metering window. Fixed layout. */
typedef struct SE_BusMeter {
    /** Largest absolute sample (1 = full scale). */
    float peak;
    /** Root mean square over both channels. */
    float rms;
} SE_BusMeter;

/** A bus's meter at the end of every metering window (Wwise AkBusMeteringCallbackFunc). Event thread. */
typedef void (*SE_BusMeterCallback)(uint32_t bus, const SE_BusMeter *meter, void *cookie);

/* ------------------------------------------------------------------------- */
/* Settings                                                                  */
/* ------------------------------------------------------------------------- */

/** Sample encoding of the output stream. */
typedef uint32_t SE_SampleFormat;
enum { SE_SampleFormatFloat32 = 0, SE_SampleFormatInt16 = 1 };

/**
 * Platform-independent settings (AkInitSettings). Fill with
 * se_default_init_settings, change what you need, pass to se_initialize.
 * Every field is checked there; a bad one is SE_InvalidParameter naming it.
 */
typedef struct SE_InitSettings {
    /** sizeof(SE_InitSettings), set by se_default_init_settings. */
    uint32_t struct_size;
    /** Frames per render quantum (uNumSamplesPerFrame): a power of two, 64...8192. Default 512. */
    uint32_t samples_per_frame;
    /** Bytes of the game-to-audio command queue (uCommandQueueSize), 1...64 MiB. Default 256 KiB. */
    uint32_t command_queue_size;
    /**
     * Voices that can exist at once, heard or virtual (the pool), 1...65536.
     * Default 256. With every one in use, a new voice takes the place of the
     * least important voice of lower priority; one of no higher priority
     * than all of them is not started (SE_CallbackVoiceFailed, or
     * SE_MaxReached from se_play_sound).
     */
    uint32_t max_voices;
    /** Buses, the master bus included, 1...1024. Default 32. */
    uint32_t max_buses;
    /** Sounds loaded at once, 1...65536. Default 512. */
    uint32_t max_sounds;
    /** Streamed sounds playing at once, 0...256. Default 8. */
    uint32_t max_streams;
    /** Soft-clip the master output. Default false. */
    bool master_limiter;
    /** Optional (BGMCallback); NULL by default. */
    SE_BackgroundMusicCallback bgm_callback;
    void *bgm_callback_cookie;
    /** Optional: where the engine's messages go; NULL (default) drops them. */
    SE_LogCallback log_callback;
    void *log_callback_cookie;
    /** The least severe level passed to log_callback. Default SE_LogLevelWarning. */
    SE_LogLevel log_level;
    /**
     * Voices mixed at once (Wwise's max-voices limit), 1...max_voices, or 0
     * (default) for max_voices. Beyond it the voices of lowest priority
     * follow their virtual behaviour (kill, continue, restart).
     */
    uint32_t max_audible_voices;
    /**
     * The live profiler's link (docs/profiling.md): listen at
     * $XDG_RUNTIME_DIR/soundengine/<pid>.sock (without XDG_RUNTIME_DIR:
     * /tmp/soundengine-<uid>/<pid>.sock) for tools of the same user, such as
     * soundengine-top. Default false: no socket, no thread. The environment
     * variable SOUNDENGINE_PROFILER=1 turns it on whatever this says. (1.2)
     * Added after max_audible_voices: a struct_size without it reads as false.
     */
    bool profiler;
    /**
     * Let a connected tool make live edits (RTPCs, states, bus volumes and
     * mutes); requires profiler. Default false. SOUNDENGINE_PROFILER_EDITS=1
     * in the environment turns it on with the link. (1.2)
     */
    bool profiler_edits;
} SE_InitSettings;

/**
 * Linux/PulseAudio settings (AkPlatformInitSettings, in its iOS shape:
 * the audio session and its callbacks live here). Fill with
 * se_default_platform_init_settings. Strings are copied by se_initialize.
 * Every callback is optional (NULL: not called) and gets its own cookie.
 */
typedef struct SE_PlatformInitSettings {
    /** sizeof(SE_PlatformInitSettings), set by se_default_platform_init_settings. */
    uint32_t struct_size;
    /** Frames per second (uSampleRate), 8000...192000. Default 48000. */
    uint32_t sample_rate;
    /** Default SE_SampleFormatFloat32. */
    SE_SampleFormat sample_format;
    /** Output channels, 0...8. 0 (the default): the device's layout, up to 8 (5.1 on a 5.1 device); 1...8: that many. */
    uint32_t channel_count;
    /** Channels of captured input (record, playAndRecord), 1...8. Default 1. */
    uint32_t input_channel_count;
    /** The audio session the engine activates at initialize. Default soloAmbient, no options, default mode. */
    SE_AudioSessionProperties audio_session;
    /** Buffering: frames at 48 kHz the server keeps (tlength). Default 1024 (about 20 ms). */
    uint32_t latency_target_frames;
    /** Frames the server asks for at a time (minreq), a power of two 64...8192;
     *  latency_target_frames must be a multiple, at least two, at most 24000. Default 256. */
    uint32_t latency_request_frames;
    /** SCHED_RR priority of the render thread, 1...99, or 0 for normal priority. Default 4. */
    int32_t realtime_priority;
    /** How long se_initialize waits for the server, 1...60000 ms. Default 3000. */
    uint32_t connect_timeout_ms;
    /** Cork the stream after this long with nothing playing, at least 100 ms; 0 never corks. Default 10000. */
    uint32_t idle_cork_timeout_ms;
    /** The server, e.g. "unix:/run/user/1000/pulse/native"; NULL (default) follows PULSE_SERVER. */
    const char *server_address;
    /** The name mixers show for the game; not empty. Default "SoundEngine". */
    const char *application_name;
    /** Reverse-DNS application ID, or NULL (default). */
    const char *application_id;
    /** Start the crash guardian process (docs/pulseaudio.md, "Nothing left behind"). Default true. */
    bool crash_repair_guardian_process;
    /** Where crash journals live; NULL (default) is $XDG_RUNTIME_DIR/soundengine. */
    const char *crash_repair_journal_directory;

    SE_InterruptionCallback interruption_callback;
    void *interruption_callback_cookie;
    SE_RouteChangeCallback route_change_callback;
    void *route_change_callback_cookie;
    SE_MediaServicesCallback media_services_lost_callback;
    void *media_services_lost_callback_cookie;
    SE_MediaServicesCallback media_services_reset_callback;
    void *media_services_reset_callback_cookie;
    SE_OtherAudioPlayingCallback other_audio_playing_callback;
    void *other_audio_playing_callback_cookie;
    SE_SilenceSecondaryAudioHintCallback silence_secondary_audio_hint_callback;
    void *silence_secondary_audio_hint_callback_cookie;
    SE_InputCallback input_callback;
    void *input_callback_cookie;
} SE_PlatformInitSettings;

/**
 * Fills `settings` with the defaults (Wwise GetDefaultInitSettings) and sets
 * its struct_size. `struct_size` must be sizeof(SE_InitSettings).
 * Returns SE_InvalidParameter for NULL or another size.
 */
SE_Result se_default_init_settings(SE_InitSettings *settings, size_t struct_size);

/**
 * Fills `settings` with the defaults (Wwise GetDefaultPlatformInitSettings)
 * and sets its struct_size. `struct_size` must be sizeof(SE_PlatformInitSettings).
 * Returns SE_InvalidParameter for NULL or another size.
 */
SE_Result se_default_platform_init_settings(SE_PlatformInitSettings *settings, size_t struct_size);

/* ------------------------------------------------------------------------- */
/* Lifecycle                                                                 */
/* ------------------------------------------------------------------------- */

/**
 * Starts the engine (Wwise Init): checks both settings blocks, connects to
 * the sound server, activates the audio session, starts rendering. May take
 * up to connect_timeout_ms; other threads are not held up meanwhile.
 * Returns SE_InvalidParameter naming the bad field (both pointers are
 * required); SE_DeviceNotReady naming the server address when no server
 * answers; SE_AlreadyInitialized. After a failure nothing runs.
 */
SE_Result se_initialize(const SE_InitSettings *settings, const SE_PlatformInitSettings *platform);

/**
 * Stops everything (Wwise Term): voices end (their callbacks run), the
 * session is deactivated, other apps get back what the session took, the
 * engine's threads end. When it returns no callback runs any more and every
 * handle is stale. Does nothing when not initialized. May be called from a callback.
 */
void se_terminate(void);

/** Whether se_initialize succeeded and se_terminate has not run (Wwise IsInitialized). Never waits. */
bool se_is_initialized(void);

/**
 * Puts the engine in background mode (Wwise Suspend): the output stream is
 * corked. With `render_anyway` voices keep advancing with the output
 * discarded; without, they hold their place. The output fades to silence
 * over fade_ms first (0: one render quantum, the shortest fade that does not
 * click; at most 10000, as the engine waits for the fade to be heard).
 */
SE_Result se_suspend(bool render_anyway, int32_t fade_ms);

/** Leaves background mode (Wwise WakeupFromSuspend); the output fades back in. */
SE_Result se_wakeup_from_suspend(void);

/**
 * Tells the engine the game went to the background (window hidden or
 * minimised): ambient and soloAmbient pause, playback plays on unless
 * SE_AudioSessionBehaviorSuspendInBackground.
 */
SE_Result se_application_did_enter_background(void);

/** Tells the engine the game is back in the foreground: it takes the audio back. */
SE_Result se_application_will_enter_foreground(void);

/** Whether the game is in the foreground or the background. */
typedef uint32_t SE_ApplicationState;
enum { SE_ApplicationStateForeground = 0, SE_ApplicationStateBackground = 1 };

/**
 * (1.1) Where the engine takes the game to be, as se_application_did_enter_background
 * and se_application_will_enter_foreground last told it
 * (SE_ApplicationStateForeground until then).
 */
SE_Result se_get_application_state(SE_ApplicationState *state);

/* ------------------------------------------------------------------------- */
/* Audio session                                                             */
/* ------------------------------------------------------------------------- */

/**
 * Changes the session at run time (Wwise iOS::ChangeAudioSessionProperties):
 * the output fades, the stream is re-created if its role changes, and fades
 * back in; voices keep playing. A combination iOS refuses changes nothing
 * (SE_InvalidParameter, or SE_Fail with a session code).
 */
SE_Result se_change_audio_session_properties(const SE_AudioSessionProperties *properties);

/**
 * Activates or deactivates the session (AVAudioSession setActive:withOptions:).
 * Deactivating corks the output and gives other apps back what the session
 * took. `options`: 0 or SE_AudioSessionSetActiveOptionNotifyOthersOnDeactivation.
 */
SE_Result se_set_audio_session_active(bool active, SE_AudioSessionSetActiveOptions options);

/**
 * Overrides the output (AVAudioSession overrideOutputAudioPort:):
 * SE_AudioSessionPortOverrideSpeaker routes a playAndRecord session to the
 * built-in speaker until the next route change or interruption;
 * SE_AudioSessionPortOverrideNone ends it. Outside playAndRecord: SE_Fail,
 * session code '!cat'.
 */
SE_Result se_override_output_audio_port(SE_AudioSessionPortOverride port_override);

/**
 * Prefers the input whose SE_Port.uid is `uid` (AVAudioSession
 * setPreferredInput:), one of se_get_available_inputs; NULL (optional)
 * returns to the default rule. In a category without input: SE_Fail, session
 * code '!cat'; a uid no present input has: SE_InvalidParameter naming it.
 */
SE_Result se_set_preferred_input(const char *uid);

/**
 * (1.1) The inputs the category and options allow (AVAudioSession
 * availableInputs), newest first, as the `inputs` of one allocation the
 * game owns (`output_count` is 0); free it with se_free_route. Each
 * SE_Port's `uid` is what se_set_preferred_input takes. A category
 * without input (ambient, soloAmbient, playback) lists none. On failure
 * `*inputs` is NULL.
 */
SE_Result se_get_available_inputs(SE_Route **inputs);

/**
 * (1.1) The preferred input (AVAudioSession preferredInput) as one
 * allocation the game owns, with `input_count` 1, or 0 when none is
 * preferred (the default rule) or the preferred one is not present; free it
 * with se_free_route. On failure `*input` is NULL.
 */
SE_Result se_get_preferred_input(SE_Route **input);

/**
 * Reads the live session into `status`; `struct_size` is
 * sizeof(SE_AudioSessionStatus), of this header or of 1.0's (then the
 * fields marked (1.1) are not written).
 */
SE_Result se_get_audio_session_status(SE_AudioSessionStatus *status, size_t struct_size);

/**
 * The inputs and outputs in use (AVAudioSession currentRoute): on success
 * `*route` is one allocation the game owns; free it with se_free_route.
 * On failure `*route` is set to NULL.
 */
SE_Result se_get_current_route(SE_Route **route);

/** Frees a route from se_get_current_route or se_get_output_devices; NULL does nothing. */
void se_free_route(SE_Route *route);

/**
 * The outputs a settings menu can offer (every present output the category
 * allows, newest first), as the `outputs` of one allocation the game owns
 * (`input_count` is 0); free it with se_free_route. Each SE_Port's `uid` is
 * stable across runs; its `name` is for people. On failure `*devices` is NULL.
 */
SE_Result se_get_output_devices(SE_Route **devices);

/**
 * Pins the output to the device whose SE_Port.uid is `uid` — the player's
 * choice (Wwise ReplaceOutput, FMOD setDriver) — or, with NULL, lets the
 * routing rules choose again (the system default, the newest accessory). A
 * pinned device holds through default changes and newly plugged devices;
 * when it goes the route falls back (a route change, reason
 * SE_RouteChangeReasonOldDeviceUnavailable) and returns to it when it comes
 * back. SE_InvalidParameter (naming the uid) for an output not present or not
 * allowed.
 */
SE_Result se_pin_output(const char *uid);

/**
 * (1.1) What the output is pinned to, for a settings menu to show the
 * player's choice: `*length` (required) gets the pinned device's uid length
 * in bytes, 0 when nothing is pinned (the routing rules choose), and `uid`
 * gets the uid and a terminating NUL ("" when nothing is pinned). The pin
 * holds while its device is absent, so the uid may name no present output.
 * `uid` may be NULL with `capacity` 0 to learn the length first. A
 * `capacity` of at most the length is SE_InvalidParameter: nothing is
 * written to `uid`, and `*length` says how much is needed.
 */
SE_Result se_get_pinned_output(char *uid, size_t capacity, size_t *length);

/**
 * (1.1) How long a frame rendered now takes to reach the speaker, in ms,
 * as the server reports it (the engine's buffer plus the device's); -1
 * while unknown (before the stream has played, or while it is corked).
 */
SE_Result se_get_output_latency(double *latency_ms);

/**
 * (1.1) Reads captured input (record and playAndRecord categories), the
 * pull alternative to SE_PlatformInitSettings.input_callback: up to
 * `frame_capacity` frames of input_channel_count interleaved floats at the
 * engine's sample rate, from the routed input, into `samples` (room for
 * frame_capacity * input_channel_count floats). `*frames_read` gets how
 * many frames were written: 0 when none are waiting, in a category without
 * input, or when input_callback takes the input instead. Never blocks.
 * `samples` may be NULL only with `frame_capacity` 0.
 */
SE_Result se_read_input(float *samples, size_t frame_capacity, size_t *frames_read);

/** Mutes or unmutes the background-music buses (Wwise MuteBackgroundMusic). */
SE_Result se_mute_background_music(bool mute);

/** Whether the background-music buses are muted (Wwise GetBackgroundMusicMute); false when not initialized. */
bool se_is_background_music_muted(void);

/* ------------------------------------------------------------------------- */
/* Banks and IDs                                                             */
/* ------------------------------------------------------------------------- */

/**
 * Loads a bank file (Wwise LoadBank; docs/banks.md): all or nothing.
 * `*bank_id` gets the bank's ID (the ID of its name, the same in every run).
 * A file that is missing or not a valid bank fails with SE_InvalidFile or
 * SE_FileNotFound, and the message lists every problem; a bank that is
 * loaded already, or that defines a name a loaded bank defines, fails too
 * (SE_InvalidFile or SE_InvalidParameter, naming both).
 */
SE_Result se_load_bank(const char *path, uint32_t *bank_id);

/** Options of se_load_bank_with_options, a bitmask. */
typedef uint32_t SE_BankLoadFlags;
enum {
    /**
     * Let the bank's sound files live outside its folder (absolute paths, or
     * paths that climb out with ".."). Off by default: banks can come from
     * mods, and a bank should not read arbitrary files. Streamed files are
     * opened beneath the bank's folder without following symbolic links
     * either way.
     */
    SE_BankLoadAllowFilesOutsideBankFolder = 0x1
};

/**
 * (1.1) se_load_bank with options: `flags` 0 is se_load_bank; unknown bits
 * are SE_InvalidParameter. A sound file outside the bank's folder without
 * SE_BankLoadAllowFilesOutsideBankFolder: SE_InvalidFile naming it.
 */
SE_Result se_load_bank_with_options(const char *path, SE_BankLoadFlags flags, uint32_t *bank_id);

/**
 * Unloads a bank (Wwise UnloadBank): its voices fade out and end, their
 * end-of-event callbacks run. A bank that is not loaded: SE_InvalidParameter.
 */
SE_Result se_unload_bank(uint32_t bank_id);

/**
 * The ID of a name (Wwise GetIDFromString: 32-bit FNV-1 of the lowercased
 * name), for the *_by_id functions. Needs no engine.
 */
SE_Result se_get_id_from_string(const char *name, uint32_t *id);

/* ------------------------------------------------------------------------- */
/* Game objects                                                              */
/* ------------------------------------------------------------------------- */

/** Wwise's AK_INVALID_GAME_OBJECT: never a game object; as an RTPC scope, the global value. */
#define SE_INVALID_GAME_OBJECT ((uint64_t)~(uint64_t)0)

/** A vector in game units: left-handed, X right, Y up, Z forward. Fixed layout. */
typedef struct SE_Vector3 {
    float x, y, z;
} SE_Vector3;

/**
 * Where a game object is and which way it faces (AkSoundPosition / AkTransform).
 * front and top need not be unit length or exactly perpendicular, but must be
 * finite, non-zero and not parallel. Fixed layout.
 */
typedef struct SE_Transform {
    SE_Vector3 position;
    SE_Vector3 orientation_front;
    SE_Vector3 orientation_top;
} SE_Transform;

/**
 * Registers a game object (Wwise RegisterGameObj); `name` (optional, NULL)
 * is for logs. The game chooses the IDs; 0 and SE_INVALID_GAME_OBJECT are
 * refused. Registering again does nothing.
 */
SE_Result se_register_game_object(uint64_t game_object, const char *name);

/** Unregisters a game object (Wwise UnregisterGameObj): its postings stop, its values are forgotten. */
SE_Result se_unregister_game_object(uint64_t game_object);

/** Places a registered game object, emitter or listener (Wwise SetPosition). */
SE_Result se_set_position(uint64_t game_object, const SE_Transform *transform);

/**
 * Makes these registered game objects the listeners (Wwise
 * SetDefaultListeners). `listeners` may be NULL when `count` is 0 (no
 * listener: an implicit one at the origin). count at most 256.
 */
SE_Result se_set_default_listeners(const uint64_t *listeners, uint32_t count);

/**
 * One game-defined aux send (Wwise AkAuxSendValue): the aux bus (a bank bus
 * with "aux": true) by name, or by ID (se_get_id_from_string of its name)
 * when `bus_name` is NULL, and the level, a linear gain 0...16 (0.5 puts the
 * dry signal into the aux bus at -6 dB).
 */
typedef struct SE_AuxSend {
    const char *bus_name;
    uint32_t bus_id;
    float level;
} SE_AuxSend;

/**
 * Sets a game object's game-defined aux sends (Wwise
 * SetGameObjectAuxSendValues), replacing the ones it had: every voice it
 * plays, now and later, also sends its output (after volume, pan and
 * filter) times each level to each aux bus. `sends` may be NULL when
 * `count` is 0 (no sends). At most 4. SE_InvalidParameter for a level NaN,
 * infinite or outside 0...16, a bus given twice, not an aux bus or not
 * loaded, more than 4, or an unregistered game object (a stale handle).
 */
SE_Result se_set_game_object_aux_send_values(uint64_t game_object, const SE_AuxSend *sends, uint32_t count);

/* ------------------------------------------------------------------------- */
/* Events                                                                    */
/* ------------------------------------------------------------------------- */

/**
 * Posts an event on a registered game object (Wwise PostEvent). On success
 * `*playing_id` (never 0) names this posting. `callback` (optional, NULL)
 * is told what `callback_flags` (SE_CallbackEndOfEvent | SE_CallbackMarker,
 * or 0) ask for, with `cookie`. The callback may run before this returns
 * (SE_CallbackDuration comes as the voice starts, SE_CallbackVoiceFailed
 * when it cannot): it must take the posting from `info->playing_id`, not
 * from what `*playing_id` will hold. Returns SE_IDNotFound for an unknown
 * event.
 */
SE_Result se_post_event(const char *event_name, uint64_t game_object, SE_CallbackType callback_flags,
                        SE_EventCallback callback, void *cookie, uint32_t *playing_id);

/** se_post_event with the event's ID (se_get_id_from_string of its name). */
SE_Result se_post_event_by_id(uint32_t event_id, uint64_t game_object, SE_CallbackType callback_flags,
                              SE_EventCallback callback, void *cookie, uint32_t *playing_id);

/**
 * Stops one posting (Wwise StopPlayingID) with a fade of `fade_out_ms`
 * (0...SE_MAX_DURATION_MS; at least the short de-click). A posting that has
 * already ended is ignored: SE_Success (it may have ended on the way); 0
 * and an ID no posting of this engine had are SE_InvalidParameter.
 */
SE_Result se_stop_playing_id(uint32_t playing_id, int32_t fade_out_ms);

/** Stops every voice of the engine (Wwise StopAll()), fading over fade_out_ms. */
SE_Result se_stop_all(int32_t fade_out_ms);

/** Stops every posting on one registered game object (Wwise StopAll(gameObject)). */
SE_Result se_stop_all_on_game_object(uint64_t game_object, int32_t fade_out_ms);

/** Whether a posting has not ended yet; false for 0, an unknown or ended ID, and when not initialized. */
bool se_is_playing(uint32_t playing_id);

/**
 * Pauses every voice of a posting where it is (Wwise ExecuteActionOnPlayingID
 * with Pause), fading out over `fade_ms` (0...SE_MAX_DURATION_MS; at least
 * the short de-click); its delayed actions keep their time. An ended posting
 * is ignored (SE_Success); 0 and an ID no posting of this engine had are
 * SE_InvalidParameter.
 */
SE_Result se_pause_playing_id(uint32_t playing_id, int32_t fade_ms);

/** Resumes what se_pause_playing_id paused, fading in over `fade_ms`; playing IDs as for se_pause_playing_id. */
SE_Result se_resume_playing_id(uint32_t playing_id, int32_t fade_ms);

/**
 * Moves every started voice of a posting to `position_ms`
 * (0...SE_MAX_DURATION_MS) from the start of its sound (Wwise SeekOnEvent),
 * click-free: a loop wraps into its loop region, a one-shot sought past its
 * end stops. An ended posting is ignored (SE_Success); 0 and an ID no
 * posting of this engine had are SE_InvalidParameter; SE_MaxReached when a
 * streamed sound needs a stream buffer and all play.
 */
SE_Result se_seek_on_playing_id(uint32_t playing_id, int32_t position_ms);

/**
 * se_seek_on_playing_id to `fraction` (0...1, as Wwise's in_fPercent) of
 * each voice's sound; SE_InvalidParameter for NaN, a value outside 0...1 or a
 * stream whose length is unknown. Playing IDs as for se_seek_on_playing_id.
 */
SE_Result se_seek_on_playing_id_fraction(uint32_t playing_id, float fraction);

/**
 * Where the posting's first voice still playing is in its sound, in ms, as of
 * the last render quantum (Wwise GetSourcePlayPosition). SE_IDNotFound when
 * it has ended or has no voice yet (only delayed actions); SE_InvalidParameter
 * for 0 and an ID no posting of this engine had.
 */
SE_Result se_get_source_play_position(uint32_t playing_id, int32_t *position_ms);

/* ------------------------------------------------------------------------- */
/* RTPCs, states, switches                                                   */
/* ------------------------------------------------------------------------- */

/**
 * Sets a game parameter (Wwise SetRTPCValue), clamped to its range: for one
 * registered game object, or globally with SE_INVALID_GAME_OBJECT. With
 * `interpolation_ms` (0...SE_MAX_DURATION_MS) it moves linearly there.
 */
SE_Result se_set_rtpc_value(const char *rtpc_name, double value, uint64_t game_object, int32_t interpolation_ms);

/** se_set_rtpc_value by ID. */
SE_Result se_set_rtpc_value_by_id(uint32_t rtpc_id, double value, uint64_t game_object, int32_t interpolation_ms);

/** Forgets a set value (Wwise ResetRTPCValue): falls back to the global value, then the default. */
SE_Result se_reset_rtpc_value(const char *rtpc_name, uint64_t game_object);

/** The value in force now (Wwise GetRTPCValue), for a game object or SE_INVALID_GAME_OBJECT. */
SE_Result se_get_rtpc_value(const char *rtpc_name, uint64_t game_object, double *value);

/**
 * Sets a game parameter for one posting's voices only (Wwise
 * SetRTPCValueByPlayingID), over its game object's and the global value.
 * An ended posting is ignored (SE_Success); 0 and an ID no posting of this
 * engine had are SE_InvalidParameter.
 */
SE_Result se_set_rtpc_value_by_playing_id(const char *rtpc_name, double value, uint32_t playing_id,
                                          int32_t interpolation_ms);

/**
 * Forgets a posting's own value: its voices follow the game object's or
 * global value again. Playing IDs as for se_set_rtpc_value_by_playing_id.
 */
SE_Result se_reset_rtpc_value_by_playing_id(const char *rtpc_name, uint32_t playing_id);

/**
 * The value a posting's voices hear now. SE_IDNotFound when it has ended
 * (or for an unknown RTPC); SE_InvalidParameter for 0 and an ID no posting
 * of this engine had.
 */
SE_Result se_get_rtpc_value_by_playing_id(const char *rtpc_name, uint32_t playing_id, double *value);

/** Sets a state group's state for the whole game (Wwise SetState). */
SE_Result se_set_state(const char *state_group, const char *state);

/** se_set_state by IDs. */
SE_Result se_set_state_by_id(uint32_t state_group_id, uint32_t state_id);

/** The ID of a state group's current state (Wwise Query::GetState). */
SE_Result se_get_state(const char *state_group, uint32_t *state_id);

/** Sets a registered game object's switch (Wwise SetSwitch). */
SE_Result se_set_switch(const char *switch_group, const char *switch_value, uint64_t game_object);

/** se_set_switch by IDs. */
SE_Result se_set_switch_by_id(uint32_t switch_group_id, uint32_t switch_value_id, uint64_t game_object);

/** The ID of a game object's current value of a switch group (Wwise Query::GetSwitch). */
SE_Result se_get_switch(const char *switch_group, uint64_t game_object, uint32_t *switch_value_id);

/* ------------------------------------------------------------------------- */
/* Sounds and voices (playing files directly, without banks)                 */
/* ------------------------------------------------------------------------- */

/** How a voice interpolates between its sound's samples when the rates differ (pitch, sample rate). */
typedef uint32_t SE_ResamplerQuality;
enum {
    /** Loading a sound: linear. Playing one (SE_VoiceParameters.quality): the sound's own. */
    SE_ResamplerQualityDefault = 0,
    /** Two-point linear interpolation: the cheapest. */
    SE_ResamplerQualityLinear = 1,
    /** Four-point cubic (Catmull-Rom): less high-frequency loss, about twice the cost. */
    SE_ResamplerQualityCubic = 2,
    /** 16-tap windowed sinc: the best, about eight times the cost of linear. */
    SE_ResamplerQualitySinc = 3
};

/**
 * How a voice starts; fill with se_default_voice_parameters. Programs built
 * against the 1.0 header pass its smaller struct (without the fields marked
 * (1.1)); those fields then take their defaults.
 */
typedef struct SE_VoiceParameters {
    /** sizeof(SE_VoiceParameters), set by se_default_voice_parameters. */
    uint32_t struct_size;
    /** Linear gain, 0...16. Default 1. */
    float volume;
    /** -1 (left) ... 1 (right), equal power. Default 0. */
    float pan;
    /** Playback-rate ratio, 1/256...16 (2 = an octave up). Default 1. */
    double pitch;
    /** Repeat until stopped. Default false. */
    bool loop;
    /** Fade in from silence, 0...SE_MAX_DURATION_MS. Default 0. */
    int32_t fade_in_ms;
    /** Low-pass cut-off in Hz, 10...24000, or 0 (default) for none. */
    float low_pass_hz;
    /** Importance against every voice, 0...100. Default 50. */
    int32_t priority;
    /** What the voice does while the voice limit leaves it out. Default SE_VirtualBehaviorKill. */
    SE_VirtualBehavior virtual_behavior;
    /** (1.1) How long after the call the first frame plays, 0...SE_MAX_DURATION_MS, to the frame. Default 0. */
    int32_t delay_ms;
    /** (1.1) This voice's resampler, over its sound's. Default SE_ResamplerQualityDefault: the sound's. */
    SE_ResamplerQuality quality;
} SE_VoiceParameters;

/** The master bus's ID. */
#define SE_MASTER_BUS 0u

/**
 * Fills `parameters` with the defaults; `struct_size` is
 * sizeof(SE_VoiceParameters), of this header or of 1.0's.
 */
SE_Result se_default_voice_parameters(SE_VoiceParameters *parameters, size_t struct_size);

/**
 * Loads a sound file (WAV, FLAC, Ogg Vorbis, Opus, MP3: what libsndfile
 * decodes): decoded into memory now, or with `streaming` decoded ahead of
 * playback (music). `*sound` gets its handle (never 0). It loops whole and
 * resamples linearly: se_load_sound_with_options chooses.
 */
SE_Result se_load_sound(const char *path, bool streaming, uint64_t *sound);

/** (1.1) How a sound is loaded; fill with se_default_sound_options. */
typedef struct SE_SoundOptions {
    /** sizeof(SE_SoundOptions), set by se_default_sound_options. */
    uint32_t struct_size;
    /** Whether plays may loop it (SE_VoiceParameters.loop; false: such a play is refused). Default true. */
    bool loopable;
    /**
     * The region a looping play repeats, in frames of the sound: from
     * loop_start_frame up to, not including, loop_end_frame (0: the end of
     * the sound). Default 0 and 0: the whole sound. A region inside the
     * sound must be at least 64 frames long; both must be 0 when loopable is
     * false. A streamed sound always loops whole, so takes only the defaults.
     */
    uint32_t loop_start_frame;
    uint32_t loop_end_frame;
    /** The resampler of the sound's plays unless a play chooses its own. Default SE_ResamplerQualityDefault (linear). */
    SE_ResamplerQuality quality;
} SE_SoundOptions;

/** (1.1) Fills `options` with the defaults; `struct_size` must be sizeof(SE_SoundOptions). */
SE_Result se_default_sound_options(SE_SoundOptions *options, size_t struct_size);

/**
 * (1.1) se_load_sound with a loop region and resampler quality; `options`
 * is optional (NULL: the defaults, as se_load_sound). A loop region not
 * inside the sound (found once it is decoded) is SE_InvalidParameter naming
 * it.
 */
SE_Result se_load_sound_with_options(const char *path, bool streaming, const SE_SoundOptions *options,
                                     uint64_t *sound);

/**
 * (1.1) Loads audio the game decoded or synthesised itself: `frame_count`
 * frames of `channel_count` (1...1024) interleaved float samples at
 * `sample_rate` (1000...768000 Hz), at most 2^31 - 1 samples in all, copied
 * before the call returns. `name` is what logs and errors call it.
 * `options` as for se_load_sound_with_options (NULL: the defaults).
 * SE_InvalidParameter naming the argument for NULL, no frames, a count,
 * rate or channel count out of range, a sample that is NaN or infinite, or
 * a loop region not inside the sound; SE_InsufficientMemory when the copy
 * cannot be allocated; SE_MaxReached when max_sounds are loaded.
 */
SE_Result se_load_sound_from_memory(const char *name, const float *samples, size_t frame_count,
                                    uint32_t channel_count, uint32_t sample_rate, const SE_SoundOptions *options,
                                    uint64_t *sound);

/** Unloads a sound; its voices fade out and end. */
SE_Result se_unload_sound(uint64_t sound);

/**
 * Plays a sound on a bus (SE_MASTER_BUS or an ID from se_get_bus_id).
 * `parameters` is optional (NULL: the defaults). `callback` (optional) is
 * called once when the voice ends. `*voice` gets its handle (never 0).
 */
SE_Result se_play_sound(uint64_t sound, uint32_t bus, const SE_VoiceParameters *parameters,
                        SE_VoiceEndCallback callback, void *cookie, uint64_t *voice);

/** Stops a voice, fading out over fade_out_ms (0: the short de-click). An ended voice is SE_InvalidParameter. */
SE_Result se_stop_voice(uint64_t voice, int32_t fade_out_ms);

/** Pauses a voice where it is, fading out over fade_ms (at least the short de-click). */
SE_Result se_pause_voice(uint64_t voice, int32_t fade_ms);

/** Resumes a paused voice, fading in over fade_ms (at least the short de-click). */
SE_Result se_resume_voice(uint64_t voice, int32_t fade_ms);

/** Moves a voice to `position_ms` in its sound, as se_seek_on_playing_id does. */
SE_Result se_seek_voice(uint64_t voice, int32_t position_ms);

/**
 * (1.1) Moves a voice to `fraction` (0...1) of its sound's length, as
 * se_seek_on_playing_id_fraction does; SE_InvalidParameter for NaN, a value
 * outside 0...1 or a stream whose length is unknown.
 */
SE_Result se_seek_voice_fraction(uint64_t voice, float fraction);

/** Where a voice is in its sound, in ms; SE_InvalidParameter for a voice that has ended. */
SE_Result se_get_voice_position(uint64_t voice, int32_t *position_ms);

/** Sets a voice's linear volume (0...16), ramped over ramp_ms (0: one render quantum). */
SE_Result se_set_voice_volume(uint64_t voice, float volume, int32_t ramp_ms);

/** Sets a voice's pan (-1...1), ramped over ramp_ms (0: one render quantum). */
SE_Result se_set_voice_pan(uint64_t voice, float pan, int32_t ramp_ms);

/** Sets a voice's pitch ratio (1/256...16) from the next render quantum. */
SE_Result se_set_voice_pitch(uint64_t voice, double pitch);

/**
 * (1.1) Sets a voice's low-pass cut-off in Hz (10...24000, rounded to 1/8
 * octave: voices in one band of a bus share a filter), ramped over ramp_ms
 * (0: one render quantum); 0 opens the filter. A change of band
 * crossfades, so nothing clicks. A posting has no such setter: its
 * filters are its bank's (RTPCs, states).
 */
SE_Result se_set_voice_low_pass(uint64_t voice, float cutoff_hz, int32_t ramp_ms);

/** Whether a voice is playing or paused rather than ended; false when not initialized. */
bool se_is_voice_playing(uint64_t voice);

/* ------------------------------------------------------------------------- */
/* Buses and meters                                                          */
/* ------------------------------------------------------------------------- */

/** The ID of the bus named `name` (a bank's bus, or "master"). SE_IDNotFound when there is none. */
SE_Result se_get_bus_id(const char *name, uint32_t *bus);

/** Creates a bus under `parent` (SE_MASTER_BUS or a bus ID); `*bus` gets its ID. */
SE_Result se_create_bus(const char *name, uint32_t parent, uint32_t *bus);

/** Sets a bus's linear volume (0...16), ramped over ramp_ms (0: one render quantum). */
SE_Result se_set_bus_volume(uint32_t bus, float volume, int32_t ramp_ms);

/** Mutes or unmutes a bus, ramped over ramp_ms (0: one render quantum). */
SE_Result se_set_bus_mute(uint32_t bus, bool muted, int32_t ramp_ms);

/** Flags a bus "mute for background music" (Wwise's bus property). */
SE_Result se_set_bus_mute_for_background_music(uint32_t bus, bool mute_for_background_music);

/** No bus: a compressor keyed by its own input (se_set_bus_effect). */
#define SE_NO_BUS 0xFFFFFFFFu

/** The kinds of bus insert effect (docs/banks.md, "Effects"). */
typedef enum SE_EffectType {
    /** No effect: se_set_bus_effect removes the slot's. */
    SE_EffectNone = 0,
    SE_EffectParametricEQ = 1,
    SE_EffectCompressor = 2,
    SE_EffectLimiter = 3,
    SE_EffectDelay = 4,
    SE_EffectReverb = 5,
} SE_EffectType;

/**
 * Puts an insert effect in slot `index` (0...3) of `bus` (Wwise
 * SetBusEffect), replacing what was there; SE_EffectNone removes it.
 * Effects run in slot order on everything reaching the bus, before its
 * volume. `parameters` (NULL or "" for the defaults) names parameters as
 * banks do, in their units (times in seconds), separated by spaces, commas
 * or semicolons: "rt60=2.5 wet=0.6 dry=0", "band1Type=peak band1Frequency=1000
 * band1Gain=6". A compressor may be keyed by another bus's output
 * (`sidechain_bus`; SE_NO_BUS for its own input). SE_InvalidParameter for an
 * index outside 0...3, an unknown type or parameter, a value out of range,
 * a sidechain on another type or one that is the bus, an ancestor of it or
 * keyed by it in turn, or a bus that does not exist (a stale handle).
 */
SE_Result se_set_bus_effect(uint32_t bus, uint32_t index, SE_EffectType type, const char *parameters,
                            uint32_t sidechain_bus);

/**
 * Moves one parameter of the effect in slot `index` of `bus`, by its bank
 * name and in its bank unit ("wet", 0.8), over ramp_ms (0: one render
 * quantum; an effect never changes faster than 10 ms, so nothing clicks).
 * SE_InvalidParameter for an empty slot or a bus that does not exist, a
 * name the effect does not have, a value NaN or out of range.
 */
SE_Result se_set_bus_effect_parameter(uint32_t bus, uint32_t index, const char *name, float value, int32_t ramp_ms);

/**
 * A bus's latest peak and RMS (Wwise metering, polled). A bus ID at or
 * above InitSettings.max_buses is SE_InvalidParameter; a bus never created
 * below it reads as silence.
 */
SE_Result se_get_bus_meter(uint32_t bus, SE_BusMeter *meter);

/**
 * Calls `callback` with the bus's meter at the end of every metering window
 * (Wwise RegisterBusMeteringCallback); NULL stops it.
 */
SE_Result se_set_bus_meter_callback(uint32_t bus, SE_BusMeterCallback callback, void *cookie);

/* ------------------------------------------------------------------------- */
/* Statistics                                                                */
/* ------------------------------------------------------------------------- */

/** Counters of the running engine, read by se_get_statistics. Each is read on its own. */
typedef struct SE_Statistics {
    uint32_t struct_size;
    /** Voices playing, paused or waiting to start, as of the last quantum. */
    uint32_t voices_active;
    /** Voices not mixed because of the voice limit, as of the last quantum. */
    uint32_t voices_virtual;
    /** Commands queued for, and applied by, the render thread. */
    uint64_t commands_queued;
    uint64_t commands_processed;
    /** Calls refused because the command queue was full (SE_Busy). */
    uint64_t commands_rejected;
    /** Render quanta mixed. */
    uint64_t quanta_rendered;
    /** Times a streamed voice ran dry. */
    uint64_t starvations;
    /** Meter readings and notices lost because the event queue was full. */
    uint64_t events_dropped;
    /** Frames written to the sound server. */
    uint64_t frames_rendered;
    /** Underflows the server reported. */
    uint64_t underflows;
    /** Times the engine reconnected after losing the server. */
    uint64_t reconnects;
} SE_Statistics;

/** Reads the counters; `struct_size` must be sizeof(SE_Statistics). */
SE_Result se_get_statistics(SE_Statistics *statistics, size_t struct_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SOUND_ENGINE_H */
