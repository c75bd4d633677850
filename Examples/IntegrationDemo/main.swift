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

// Banks are parsed before the engine starts: a bad bank is refused (exit 1,
// every issue on stderr) and an unknown --post event too (exit 2), without
// contacting the sound server. Interactive runs default to the demo bank.
let bankPaths = options.banks.isEmpty && !options.headless ? DemoBanks.defaultBankPath.map { [$0] } ?? [] : options.banks
let banks: DemoBanks
do {
    banks = try DemoBanks(paths: bankPaths)
} catch {
    FileHandle.standardError.write(Data("IntegrationDemo: \(error.message)\n".utf8))
    exit(1)
}
let unknown = banks.unknownEvents(in: options.posts)
if !unknown.isEmpty {
    let known = banks.isEmpty ? "no --bank is given" : "the banks define \(banks.eventNames.joined(separator: ", "))"
    let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
    FileHandle.standardError.write(Data("IntegrationDemo: --post: unknown event \(names); \(known)\n".utf8))
    exit(2)
}

if options.headless {
    exit(await HeadlessDemo(options: options, banks: banks).run())
} else {
    exit(await InteractiveDemo(options: options, banks: banks).run())
}
