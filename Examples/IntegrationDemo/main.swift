// SoundEngine's Integration Demo: an interactive menu for people, and a
// headless mode for scripts (see docs/integration-demo.md).
import Foundation

let options: DemoOptions
do {
    options = try DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("IntegrationDemo: \(error.message)\n".utf8))
    exit(2)
}

if options.helpRequested {
    print(DemoOptions.usage)
    exit(0)
}
if options.headless {
    exit(await HeadlessDemo(options: options).run())
} else {
    exit(await InteractiveDemo(options: options).run())
}
