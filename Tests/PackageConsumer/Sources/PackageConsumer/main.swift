// Builds against SoundEngine as a versioned dependency and touches its API.
import SoundEngine

var settings = InitSettings()
settings.maxVoices = 64
print("PackageConsumer: SoundEngine imported by version, maxVoices \(settings.maxVoices)")
