// swift-tools-version: 6.0
//
// SoundEngine: a Wwise-shaped sound engine with iOS audio-session semantics on PulseAudio.
// Layout and the reasons for each cut: docs/architecture.md. Arrows only point down:
//
//   SoundEngineC ──► SoundEngine, CSoundEngineABI, and the value types of SoundSession, SoundMixer,
//                    SoundBackend, SoundCore       (the C API: libsoundengine.so, docs/c-api.md)
//   SoundEngine ──► SoundSession, SoundMixer, SoundDecoding, SoundBackend, PulseAudioBackend, SoundContent
//   PulseAudioBackend ──► SoundBackend, SoundSession, CPulseAudio, CGuardianHook   (the only importer of libpulse)
//   SoundDecoding ──► SoundCore, CSndFile                (the only importer of libsndfile)
//   SoundMixer ──► SoundCore, CMixKernels, SoundEffects  (SoundEffects: bus insert effects ──► CMixKernels, its C kernels)
//   SoundContent ──► SoundCore, SoundEffects                        (bank files: model, parser, validation)
//   SoundBackend ──► SoundSession ──► SoundCore          (a backend reports SystemEvents, performs ServerActions)
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SoundEngine",
    products: [
        .library(name: "SoundEngine", targets: ["SoundEngine"]),
        // The C API (docs/c-api.md): libsoundengine.so, exporting exactly the
        // functions of Sources/CSoundEngineABI/include/sound_engine.h.
        // Scripts/install-c-library builds it with its linker flags (version
        // script, SONAME, a static Swift runtime) and installs it.
        .library(name: "soundengine", type: .dynamic, targets: ["SoundEngineC"]),
        .executable(name: "IntegrationDemo", targets: ["IntegrationDemo"]),
        // The live profiler's terminal client (docs/profiling.md, "soundengine-top").
        .executable(name: "soundengine-top", targets: ["soundengine-top"]),
    ],
    targets: [
        // MARK: - System libraries (no Swift)
        .systemLibrary(
            name: "CPulseAudio",
            pkgConfig: "libpulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),

        // MARK: - Layers
        .target(name: "SoundCore", swiftSettings: strict),
        .target(name: "SoundSession", dependencies: ["SoundCore"], swiftSettings: strict),
        // No unsafeFlags (SwiftPM refuses them in a versioned dependency): the
        // function-effects check is a pragma in mix_kernels.c, optimisation is
        // the configuration's (-c release), and the instruction sets are
        // per-function `target` attributes.
        .target(name: "CMixKernels"),
        // The guardian process's way in: a constructor that hands a re-run of
        // the game's executable to the guardian before main (docs/pulseaudio.md).
        .target(name: "CGuardianHook"),
        // The bus insert effects (EQ, compressor, limiter, delay, reverb), render-safe Swift.
        .target(name: "SoundEffects", dependencies: ["CMixKernels"], swiftSettings: strict),
        .target(name: "SoundMixer", dependencies: ["SoundCore", "CMixKernels", "SoundEffects"], swiftSettings: strict),
        .target(name: "SoundDecoding", dependencies: ["SoundCore", "CSndFile"], swiftSettings: strict),
        .target(name: "SoundBackend", dependencies: ["SoundCore", "SoundSession"], swiftSettings: strict),
        .target(name: "SoundContent", dependencies: ["SoundCore", "SoundEffects"], swiftSettings: strict),
        .target(
            name: "PulseAudioBackend",
            dependencies: ["SoundBackend", "SoundSession", "SoundCore", "CPulseAudio", "CGuardianHook"],
            swiftSettings: strict
        ),
        .target(
            name: "SoundEngine",
            dependencies: [
                "SoundCore", "SoundSession", "SoundMixer", "SoundDecoding", "SoundBackend", "PulseAudioBackend",
                "SoundContent", "SoundEffects",
            ],
            swiftSettings: strict
        ),
        // The C API: the header (and the per-thread last error, in C), and its
        // Swift implementation, one `@c @implementation` per header function.
        .target(name: "CSoundEngineABI"),
        .target(
            name: "SoundEngineC",
            dependencies: ["SoundEngine", "SoundSession", "SoundMixer", "SoundBackend", "SoundCore", "CSoundEngineABI", "SoundEffects"],
            swiftSettings: strict),

        // MARK: - Tools
        // A full-screen terminal layer (raw mode, screen grid, widgets), plain
        // ANSI on Glibc, no SoundEngine dependency: docs/terminal-ui.md.
        .target(name: "TerminalUI", swiftSettings: strict),
        .executableTarget(
            name: "soundengine-top",
            dependencies: ["TerminalUI"],
            path: "Sources/soundengine-top",
            swiftSettings: strict
        ),

        // MARK: - Examples
        .executableTarget(
            name: "IntegrationDemo",
            dependencies: ["SoundEngine", "TerminalUI"],
            path: "Examples/IntegrationDemo",
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),

        // MARK: - Benchmarks (run with -c release; they print their figures)
        .executableTarget(
            name: "mixbench",
            dependencies: ["SoundMixer", "SoundEffects", "SoundCore"],
            path: "Benchmarks/mixbench",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "latencybench",
            dependencies: ["SoundEngine"],
            path: "Benchmarks/latencybench",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "sessionbench",
            dependencies: ["SoundEngine", "SoundServerSupport"],
            path: "Benchmarks/sessionbench",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "callbench",
            dependencies: ["SoundEngine", "SoundContent", "SoundServerSupport"],
            path: "Benchmarks/callbench",
            swiftSettings: strict
        ),

        // MARK: - Tests
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .target(name: "SoundServerSupport", dependencies: ["CTestSupport"], path: "Tests/SoundServerSupport"),
        .executableTarget(
            name: "LifecycleProbe",
            dependencies: ["SoundEngine", "SoundServerSupport"],
            path: "Tests/LifecycleProbe"
        ),
        .testTarget(name: "SoundCoreTests", dependencies: ["SoundCore"]),
        .testTarget(name: "SoundSessionTests", dependencies: ["SoundSession", "SoundCore", "SoundServerSupport"]),
        .testTarget(
            name: "SoundMixerTests",
            dependencies: ["SoundMixer", "SoundEffects", "SoundCore", "SoundDecoding", "CAllocationCounter", "SoundServerSupport"]
        ),
        .testTarget(name: "SoundEffectsTests", dependencies: ["SoundEffects"], swiftSettings: strict),
        .testTarget(
            name: "SoundDecodingTests",
            dependencies: ["SoundDecoding", "SoundCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SoundContentTests", dependencies: ["SoundContent", "SoundEffects", "SoundCore", "SoundDecoding", "SoundServerSupport"]),
        .testTarget(name: "SoundBackendTests", dependencies: ["SoundBackend", "SoundSession", "SoundCore"]),
        .testTarget(
            name: "IntegrationDemoTests",
            dependencies: [
                "IntegrationDemo", "SoundEngine", "SoundCore", "SoundSession", "SoundMixer", "SoundBackend", "SoundContent",
                "SoundServerSupport", "TerminalUI",
            ]
        ),
        .testTarget(
            name: "SoundEngineTopTests",
            dependencies: ["soundengine-top", "TerminalUI", "SoundServerSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PulseAudioBackendTests",
            dependencies: [
                "PulseAudioBackend", "SoundBackend", "SoundSession", "SoundCore", "CAllocationCounter", "SoundServerSupport",
            ]
        ),
        .testTarget(
            name: "SoundEngineTests",
            dependencies: [
                "SoundEngine", "SoundCore", "SoundSession", "SoundMixer", "SoundBackend", "SoundContent", "SoundEffects",
                "PulseAudioBackend", "CAllocationCounter", "SoundServerSupport",
            ]
        ),
    ]
)

// MARK: - The README's first example
// Built by `swift build` (so by CI) to keep the README's first snippet
// compiling; IntegrationDemoTests checks the README shows this code and plays it.
package.targets.append(
    .executableTarget(
        name: "FirstSound", dependencies: ["SoundEngine"], path: "Examples/FirstSound", swiftSettings: strict))
