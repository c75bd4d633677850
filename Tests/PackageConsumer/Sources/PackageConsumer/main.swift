// Builds against SoundEngine as a versioned dependency and touches the
// surface a game uses (decision 0013): the settings, the session's nested
// types, plays and postings, buses, errors, content references, and the
// offline output a game's own unit tests use. `check` also proves the
// engine's internals are not visible here (hidden-api.txt) and that only the
// chosen names are top-level (nested-api.txt).
import Foundation
import SoundEngine

var settings = InitSettings()
settings.maxVoices = 64
var platform = PlatformInitSettings()
platform.audioSession = AudioSession.Configuration(category: .ambient, categoryOptions: [.mixWithOthers])
platform.latency = .low
platform.audioCallbacks.interruptionCallback = { (interruption: AudioSession.Interruption) in
    _ = interruption.type == .began
}
platform.audioCallbacks.routeChangeCallback = { (change: AudioSession.RouteChange) in
    _ = change.reason == .newDeviceAvailable
}
let parameters = SoundEngine.PlayParameters(volume: 0.5, pan: -0.25, loop: false, fadeIn: .milliseconds(20))
let bus: SoundEngine.BusID = .master
let error: SoundEngineError = .idNotFound("example")
let event: SoundEngine.ContentReference = "Play_Footstep"
let position = SoundEngine.Vector3(x: 1, y: 0, z: 2)
print(
    "PackageConsumer: SoundEngine imported by version, maxVoices \(settings.maxVoices),",
    "category \(platform.audioSession.category), volume \(parameters.volume), \(bus), \(error.akResult),",
    "\(event) = ID \(event.id), \(position)"
)

// A game's own unit test of its audio logic: the whole engine through the
// façade on an offline output, rendered by hand.
let output = SoundEngine.OfflineOutput()
try SoundEngine.initialize(settings, platform, offline: output)
let tone = SoundEngine.DecodedAudio(
    sampleRate: 48_000, channelCount: 1, samples: (0..<4800).map { Float(sin(Double($0) * 0.0576)) * 0.5 })
let sound = try SoundEngine.loadSound(tone, name: "tone", loop: nil)
let playing = try SoundEngine.play(sound, on: bus, parameters) { (info: SoundEngine.CallbackInfo) in
    if case .endOfEvent = info { print("PackageConsumer: the tone ended") }
}
let rendered = output.render(frames: 512)
let peak = rendered.map(abs).max() ?? 0
try SoundEngine.stop(playing, fade: .milliseconds(5))
let state: SoundEngine.State = try SoundEngine.status
SoundEngine.terminate()
print("PackageConsumer: rendered \(rendered.count) samples offline, peak \(peak), \(state)")
guard rendered.count == 1024, peak > 0.01 else {
    print("PackageConsumer: the offline output did not render the tone")
    exit(1)
}

// The README's content example, compiled against the public API (not run:
// it needs the demo bank's files).
func readmeContentExample() throws {
    try SoundEngine.loadBank(path: "Examples/Banks/demo/demo.json")
    let player = SoundEngine.GameObjectID(1)
    try SoundEngine.registerGameObject(player, name: "Player")
    try SoundEngine.setSwitch("Surface", "gravel", on: player)
    try SoundEngine.postEvent("Play_Footstep", on: player)
    try SoundEngine.setRTPCValue("RPM", 4500, on: player, ramp: .milliseconds(300))
}
_ = readmeContentExample
