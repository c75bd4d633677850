// The README's first example, word for word below this header (a test checks
// that, and plays it on a private server to hear it): `swift run FirstSound`
// in the repository root plays the demo's chime and exits when it has played.
import Dispatch
import SoundEngine

var platform = SoundEngine.defaultPlatformInitSettings()
platform.audioSession.category = .ambient
try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
defer { SoundEngine.terminate() }  // stops every voice: runs once the chime has played

let chime = try SoundEngine.loadSound(path: "Examples/IntegrationDemo/Resources/chime.ogg")
let played = DispatchSemaphore(value: 0)
try SoundEngine.play(chime) { _ in played.signal() }
played.wait()
