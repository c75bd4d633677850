import Foundation
import Glibc
import TerminalUI

/// `soundengine-top`: the live profiler's terminal client (docs/profiling.md).
@main
enum SoundEngineTop {
    static func main() {
        let options: TopOptions
        do {
            options = try TopOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("soundengine-top: \(error)\n\(TopOptions.usage)\n".utf8))
            exit(2)
        }
        if options.help {
            print(TopOptions.usage)
            return
        }
        signal(SIGPIPE, SIG_IGN)  // a game that goes away mid-write is a lost link, not a dead tool
        let directory = GameDirectory()
        if options.listOnly {
            let games = directory.games()
            if games.isEmpty { print("no running game has its profiling link on (\(directory.folder))") }
            for game in games {
                print("\(game.hello.pid)\t\(game.hello.program)\tSoundEngine \(game.hello.engine)\t\(game.socketPath)")
            }
            return
        }
        let app = TopApp(options: options, directory: directory)
        exit(app.run())
    }
}
