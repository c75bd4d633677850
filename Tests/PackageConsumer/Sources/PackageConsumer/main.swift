// Builds against SoundEngine as a versioned dependency and touches the
// game-facing API a game names: settings, session types, voices, buses,
// errors, content IDs. `check` also proves the engine's internals are not
// visible here (see hidden-api.txt).
import SoundEngine

var settings = InitSettings()
settings.maxVoices = 64
var platform = PlatformInitSettings()
platform.audioSession = SessionConfiguration(category: .ambient, categoryOptions: [.mixWithOthers])
let parameters = VoiceParameters(volume: 0.5, pan: -0.25, loop: false)
let bus: BusID = .master
let error: SoundEngineError = .idNotFound("example")
let event = ContentID("Play_Footstep")
print(
    "PackageConsumer: SoundEngine imported by version, maxVoices \(settings.maxVoices),",
    "category \(platform.audioSession.category), volume \(parameters.volume), \(bus), \(error.akResult), \(event)"
)

// A game's own unit test of its audio logic: the whole engine on the offline
// backend, rendered by hand.
let offline = OfflineBackend()
let engine = try SoundEngineInstance(settings, platform, offline: offline)
let rendered = offline.renderFloat(frames: 512)?.count ?? 0
engine.terminate()
print("PackageConsumer: rendered \(rendered) samples offline")

// The README's content example, compiled against the public API (not run:
// the façade needs a server).
func readmeContentExample() throws {
    try SoundEngine.loadBank(path: "Examples/Banks/demo/demo.json")
    let player = GameObjectID(1)
    try SoundEngine.registerGameObject(player, name: "Player")
    try SoundEngine.setSwitch("Surface", "gravel", gameObject: player)
    try SoundEngine.postEvent("Play_Footstep", on: player)
    try SoundEngine.setRTPCValue("RPM", 4500, gameObject: player, interpolation: .milliseconds(300))
}
_ = readmeContentExample
