import Foundation
import SoundEngine

/// The menu a person drives from a terminal. Placeholder until the pages land.
struct InteractiveDemo {
    let options: DemoOptions
    func run() async -> Int32 {
        await HeadlessDemo(options: options).run()
    }
}
