// swift-tools-version: 6.0
//
// A game's view of SoundEngine: this package depends on it *by version*, the
// way a game depending on a tagged release does. SwiftPM refuses a versioned
// dependency whose targets use unsafeFlags, so building this proves the
// package can be depended on. `.ci/run` clones the repository to a temporary
// directory, tags the clone and builds a copy of this package against it:
//
//   SOUNDENGINE_URL=file:///tmp/…/SoundEngine SOUNDENGINE_VERSION=1.0.0 swift build
import PackageDescription

let url = Context.environment["SOUNDENGINE_URL"] ?? "https://example.invalid/SoundEngine.git"
let version = Version(Context.environment["SOUNDENGINE_VERSION"] ?? "1.0.0") ?? "1.0.0"

let package = Package(
    name: "PackageConsumer",
    dependencies: [.package(url: url, from: version)],
    targets: [
        .executableTarget(
            name: "PackageConsumer",
            dependencies: [.product(name: "SoundEngine", package: "SoundEngine")]
        )
    ]
)
